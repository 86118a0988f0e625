import type { Command } from 'commander';

/**
 * What the commands that talk to a running service share (`import`, `labels`): the options naming it, the
 * API key header, and how a refusal or an unreachable service is said.
 */

export interface ApiOptions {
  url: string;
  apiKey?: string;
  lang?: string;
}

export interface Envelope<T> {
  status: boolean;
  message?: string | null;
  data?: T;
  errors?: { message: string; field?: string }[];
}

/** A refusal or fault of the API, with its envelope's messages. */
export class ApiError extends Error {}

/** --url, --api-key and --lang, with their environment variables. */
export function withApiOptions(command: Command): Command {
  return command
    .option('--url <url>', 'service base URL (env CONSIGNFLOW_URL)', process.env.CONSIGNFLOW_URL || 'http://127.0.0.1:8080')
    .option('--api-key <key>', 'API key (env CONSIGNFLOW_API_KEY)')
    .option('--lang <lang>', 'language of messages: en or tr', process.env.CONSIGNFLOW_LANG);
}

/** The service's base URL and the headers every request carries. */
export function apiTarget(options: ApiOptions): { base: string; headers: Record<string, string> } {
  const apiKey = options.apiKey || process.env.CONSIGNFLOW_API_KEY;
  if (!apiKey) throw new ApiError('an API key is needed: --api-key or CONSIGNFLOW_API_KEY');
  return { base: options.url.replace(/\/+$/, ''), headers: { apikey: apiKey, ...(options.lang && { 'accept-language': options.lang }) } };
}

/** fetch, with an unreachable service said in one line. */
export async function reach(base: string, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(`${base}${url}`, init);
  } catch (error) {
    throw new ApiError(`cannot reach ${base}: ${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message}`);
  }
}

export function describeFailure(status: number, body: Envelope<unknown> | undefined): string {
  const lines = (body?.errors ?? []).map((e) => (e.field ? `${e.field}: ${e.message}` : e.message));
  return `HTTP ${status}${lines.length ? `\n  ${lines.join('\n  ')}` : ''}`;
}
