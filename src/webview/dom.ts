/**
 * A small element builder: text always goes in as text nodes (never parsed as HTML), and event
 * listeners are attached with `addEventListener`, since the panel's CSP forbids inline handlers.
 */

export type Child = Node | string | number | null | undefined | false;
type Listener = (event: Event) => void;
export type Props = Record<string, string | number | boolean | null | undefined | Listener>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') {
      if (!key.startsWith('on')) throw new Error(`h: listener on "${key}"`);
      el.addEventListener(key.slice(2), value);
    } else if (/^on/i.test(key)) {
      throw new Error(`h: inline handler "${key}"`);
    } else if (key === 'class') {
      el.className = String(value);
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

export function append(parent: Node, children: (Child | Child[])[]): void {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** Replaces the children of `el`. */
export function fill(el: Element, ...children: (Child | Child[])[]): void {
  el.replaceChildren();
  append(el, children);
}
