/**
 * A carrier account's access token (Sendeo's LoginAES Bearer, MNG's JWT, HepsiJet's X-Auth-Token): asked for once and
 * shared by every call in flight, renewed a little before it runs out, and renewed once when the carrier refuses it
 * anyway (revoked, or its clock disagrees with ours).
 */
export class AccountToken {
  private current?: { value: string; renewAt: number };
  private pending?: Promise<string>;

  constructor(
    /** Asks the carrier for a new token and how long it lives. */
    private readonly login: () => Promise<{ value: string; lifetimeMs: number }>,
    private readonly options: { renewEarlyMs: number; now: () => Date },
  ) {}

  /** The token: the cached one while it lives, else one new login however many calls wait for it. */
  async value(): Promise<string> {
    if (this.current && this.options.now().getTime() < this.current.renewAt) return this.current.value;
    this.pending ??= (async () => {
      try {
        const { value, lifetimeMs } = await this.login();
        this.current = { value, renewAt: this.options.now().getTime() + lifetimeMs - this.options.renewEarlyMs };
        return value;
      } finally {
        this.pending = undefined;
      }
    })();
    return this.pending;
  }

  /** Runs `call` with the token; when the carrier refuses that token (`refused`), once more with a new one. */
  async use<T>(call: (token: string) => Promise<T>, refused: (error: unknown) => boolean): Promise<T> {
    const token = await this.value();
    try {
      return await call(token);
    } catch (error) {
      if (!refused(error)) throw error;
      if (this.current?.value === token) this.current = undefined;
      return call(await this.value());
    }
  }
}
