import type { OpenAPIObject } from '@nestjs/swagger';
import { tellTheTruth } from './openapi-truth.js';

const documentWith = (schemas: Record<string, unknown>, paths: Record<string, unknown> = {}) =>
  ({
    openapi: '3.0.0',
    info: { title: 't', version: '1' },
    paths,
    components: {
      schemas,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
  }) as unknown as OpenAPIObject;

describe('tellTheTruth', () => {
  it('gives free-form objects their value type: strings for extra_fields, any JSON for metadata and the rest', () => {
    const doc = tellTheTruth(
      documentWith({
        Body: {
          type: 'object',
          properties: {
            extra_fields: { type: 'object' },
            metadata: { type: 'object' },
            next_action: { type: 'array', items: { type: 'object' } },
            declared: { type: 'object', additionalProperties: { type: 'integer' } },
          },
        },
      }),
    );
    const props = (doc.components!.schemas!.Body as { properties: Record<string, Record<string, unknown>> }).properties;
    expect(props.extra_fields.additionalProperties).toEqual({ type: 'string' });
    expect(props.metadata.additionalProperties).toBe(true);
    expect((props.next_action.items as Record<string, unknown>).additionalProperties).toBe(true);
    expect(props.declared.additionalProperties).toEqual({ type: 'integer' });
  });

  it('lets a nullable reference accept null (the referenced object in place, nullable)', () => {
    const doc = tellTheTruth(
      documentWith({
        A: { type: 'object', properties: { line1: { type: 'string' } }, required: ['line1'] },
        Customer: {
          type: 'object',
          properties: { address: { nullable: true, type: 'object', allOf: [{ $ref: '#/components/schemas/A' }] } },
        },
      }),
    );
    const address = (doc.components!.schemas!.Customer as { properties: Record<string, unknown> }).properties.address;
    expect(address).toEqual({
      type: 'object',
      properties: { line1: { type: 'string' } },
      required: ['line1'],
      nullable: true,
    });
  });

  it('lists the pipeline statuses with the error object, declares a body-less POST body, fills descriptions', () => {
    const doc = tellTheTruth(
      documentWith(
        {},
        { '/things': { post: { security: [{ secret_key: [] }], responses: { '200': { description: '' } } } } },
      ),
    );
    const op = doc.paths['/things'].post!;
    expect(Object.keys(op.responses).sort()).toEqual(
      ['200', '400', '401', '403', '413', '415', '429', '431', '500', '503'].sort(),
    );
    expect(op.responses['200']).toMatchObject({ description: expect.stringMatching(/\S/) });
    expect(op.responses['503']).toMatchObject({ description: expect.stringContaining('E5001') });
    expect(op.requestBody).toMatchObject({ required: false });
    expect(doc.components!.securitySchemes!.bearer).not.toHaveProperty('bearerFormat');
    expect((doc.components!.securitySchemes!.bearer as { description: string }).description).toMatch(/opaque/);
  });
});
