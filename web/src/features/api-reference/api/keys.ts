/** Query keys of the API reference. */
export const apiReferenceKeys = {
  openApi: ['api-reference', 'openapi'] as const,
};
