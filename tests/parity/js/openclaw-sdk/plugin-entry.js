// The plugin hands its entry (id, name, register) to this function and exports what
// it returns; the parity driver calls entry.register(api) with its own api.
export function definePluginEntry(entry) {
  return entry;
}
