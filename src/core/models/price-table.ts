// The public price table, in a module of its own so that it is loaded (~90 ms) only when a cost must come from it.
export { calcPrice } from '@pydantic/genai-prices';
