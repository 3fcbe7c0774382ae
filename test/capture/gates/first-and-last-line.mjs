// A gate that prints its first line at once and its last line argv[2] ms later, then
// exits 0: its report must hold both lines, whatever an earlier run still does.
process.stdout.write('NEXT-FIRST-LINE\n');
setTimeout(() => process.stdout.write('NEXT-LAST-LINE\n'), Number(process.argv[2] ?? 1000));
