// Sign in with an API key: checked against the API, then kept in this tab's sessionStorage.

import { AuthError, ForbiddenError, UnavailableError, gql } from "../api";
import { clearKey, setKey } from "../auth";
import { clear, h } from "../dom";
import { route, showBanner } from "../main";

export function renderSignIn(el: HTMLElement): void {
  clear(el);
  const reason = sessionStorage.getItem("provgraph.signinReason");
  sessionStorage.removeItem("provgraph.signinReason");
  const input = h("input", {
    id: "api-key",
    name: "api-key",
    type: "password",
    autocomplete: "off",
    spellcheck: "false",
    required: true,
    placeholder: "pgk_…",
    "aria-describedby": "key-help",
  }) as HTMLInputElement;
  const error = h("p", { id: "signin-error", class: "form-error", role: "alert" });
  const form = h(
    "form",
    { class: "signin panel", "aria-labelledby": "signin-title" },
    h("h1", { id: "signin-title" }, "Sign in to provgraph"),
    reason ? h("p", { class: "notice" }, reason) : null,
    h("label", { for: "api-key" }, "API key"),
    input,
    h(
      "p",
      { id: "key-help", class: "muted" },
      "A read or admin key of your project (",
      h("code", {}, "provgraph keys create --project P --role read"),
      "). It is kept in this browser tab only and sent to the API as a bearer token.",
    ),
    error,
    h("button", { type: "submit", class: "primary" }, "Sign in"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    setKey(input.value.trim());
    try {
      await gql("query Viewer { viewer { project role } }");
      showBanner(null);
      // a pasted deep link survives signing in
      if (!location.hash || location.hash.startsWith("#/signin")) location.hash = "#/sessions";
      else await route();
    } catch (err) {
      clearKey();
      if (err instanceof AuthError) error.textContent = `Key refused: ${err.message}`;
      else if (err instanceof ForbiddenError) error.textContent = `This key cannot read: ${err.message}`;
      else if (err instanceof UnavailableError) {
        error.textContent = `${err.message} Try again shortly.`;
        if (err.detail) error.append(h("span", { class: "detail" }, err.detail));
      }
      else error.textContent = String((err as Error).message ?? err);
      input.focus();
    }
  });
  el.append(h("div", { class: "center" }, form));
  input.focus();
}
