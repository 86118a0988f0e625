/** the API contract timestamps: `YYYY-MM-DD HH:MM:SS`, in UTC. */
export function formatTimestamp(iso: string): string {
  return iso.slice(0, 19).replace('T', ' ');
}
