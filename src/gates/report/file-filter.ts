/**
 * The `file` argument of a paging call: a path (a file, or a directory and everything
 * under it) or a glob (`*` within a segment, `**` across segments, `?` one character),
 * relative to the project root with forward slashes, as findings' files are.
 */
export function fileMatcher(pattern: string): (file: string | null) => boolean {
  const normalized = pattern.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
  if (!/[*?]/.test(normalized)) {
    return (file) => file !== null && (file === normalized || file.startsWith(`${normalized}/`));
  }
  let source = '';
  for (let index = 0; index < normalized.length; index += 1) {
    const char = normalized[index]!;
    if (char === '*' && normalized[index + 1] === '*') {
      const slash = normalized[index + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      index += slash ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  const regex = new RegExp(`^${source}$`);
  return (file) => file !== null && regex.test(file);
}
