/**
 * The provider presets are plain data the options page also needs, so they
 * live in core (src/core/llm/provider-presets.ts); this re-export keeps the
 * adapters' imports working.
 */
export * from '../../core/llm/provider-presets.ts';
