import { describe, expect, it } from 'vitest';
import { readConfig } from './config';

const location = { origin: 'http://localhost:5173' } as Location;

describe('readConfig', () => {
  it('reads the injected config', () => {
    expect(readConfig({ location, __SLG_CONFIG__: { appTitle: '港', publicUrl: 'https://slg.example.com/' } })).toEqual({
      appTitle: '港',
      publicUrl: 'https://slg.example.com',
    });
  });

  it('falls back to 算力港 and the current origin', () => {
    expect(readConfig({ location, __SLG_CONFIG__: undefined })).toEqual({ appTitle: '算力港', publicUrl: 'http://localhost:5173' });
    expect(readConfig({ location, __SLG_CONFIG__: { appTitle: ' ' } })).toEqual({ appTitle: '算力港', publicUrl: 'http://localhost:5173' });
  });
});
