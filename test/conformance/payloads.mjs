// What the conformance scenarios expect the everything servers to return: the suite's
// own samples, shared by our fixture, the SDK comparison servers and the bridge test.
// A 1x1 red PNG and a minimal WAV.
export const IMAGE_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
export const AUDIO_WAV_BASE64 = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

export const IMAGE_BLOCK = { type: 'image', data: IMAGE_PNG_BASE64, mimeType: 'image/png' };
export const AUDIO_BLOCK = { type: 'audio', data: AUDIO_WAV_BASE64, mimeType: 'audio/wav' };

export const EMBEDDED_TEXT_RESOURCE = {
  type: 'resource',
  resource: {
    uri: 'test://embedded-resource',
    mimeType: 'text/plain',
    text: 'This is an embedded resource content.',
  },
};

export const MIXED_JSON_RESOURCE = {
  type: 'resource',
  resource: {
    uri: 'test://mixed-content-resource',
    mimeType: 'application/json',
    text: JSON.stringify({ test: 'data', value: 123 }),
  },
};

// The suite's canonical schema (0.2 adds allOf/anyOf, if/then/else and $anchor to 0.1's).
export const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

/** The blocks each content tool returns besides (or, on the SDKs, instead of) its text. */
export const TOOL_CONTENT = {
  test_image_content: [IMAGE_BLOCK],
  test_audio_content: [AUDIO_BLOCK],
  test_embedded_resource: [EMBEDDED_TEXT_RESOURCE],
  test_multiple_content_types: [IMAGE_BLOCK, MIXED_JSON_RESOURCE],
};

/** A legacy initialize request (id 1) from the named client. */
export const legacyInitialize = (clientName) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: clientName, version: '0' },
  },
});
