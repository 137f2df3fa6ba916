// A module hook that lets plain Node import the JSON files @actions/workflow-parser imports without `with { type: 'json' }`
// (a bundler or vitest reads them; Node 20 refuses): registered by the benches that read workflows as GitHub does.
/** Loads every .json module as JSON. */
export async function load(url, context, next) {
  return next(url, url.endsWith('.json') ? { ...context, importAttributes: { type: 'json' } } : context);
}
