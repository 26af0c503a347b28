// Tiny DOM helpers: build elements without innerHTML (no injection from stored text).

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | EventListener | null | undefined>;

export function h(tag: string, attrs: Attrs = {}, ...children: (Child | Child[])[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2).toLowerCase(), value as EventListener);
    } else if (value === true) {
      el.setAttribute(name, "");
    } else {
      el.setAttribute(name, String(value));
    }
  }
  append(el, children);
  return el;
}

export function append(el: Element, children: (Child | Child[])[]): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

export function main(): HTMLElement {
  return document.getElementById("main") as HTMLElement;
}

export function announce(text: string): void {
  const live = document.getElementById("live");
  if (live) live.textContent = text;
}

export function fmtTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z").replace(/Z$/, " UTC");
}

/** Long text folded behind a <details> (the first `limit` characters stay visible). */
export function folded(text: string, limit = 400): HTMLElement {
  if (text.length <= limit) return h("pre", { class: "content" }, text);
  return h(
    "details",
    { class: "fold" },
    h("summary", {}, h("pre", { class: "content" }, text.slice(0, limit) + "…"), h("span", { class: "muted" }, `show all ${text.length} characters`)),
    h("pre", { class: "content" }, text),
  );
}
