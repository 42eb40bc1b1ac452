#include "explain/html_page.h"

// The page is written by hand, not generated: it is small, and keeping it
// in one file keeps the page self-contained (nothing to fetch, nothing to
// install). It must reach nothing outside itself: no URL, no url(), no
// @import, no src attribute (html_format_test checks the whole page).
namespace tjr::explain {

std::string_view PageStyle() {
  return R"css(
:root { --fg: #1d1d1f; --muted: #6b6b70; --rule: #d8d8dc; --panel: #f6f6f8; }
* { box-sizing: border-box; }
/* The window never scrolls: the lines and the panel do, each on its own, so
   the search box and the legend stay in view. */
body { margin: 0; color: var(--fg); font: 14px/1.4 system-ui, sans-serif; height: 100vh;
  display: flex; flex-direction: column; }
header { flex: none; padding: 10px 16px; border-bottom: 1px solid var(--rule); }
header h1 { margin: 0 0 6px; font-size: 17px; }
header .target { color: var(--muted); font-weight: normal; }
#legend { display: flex; flex-wrap: wrap; gap: 4px 14px; margin: 0; padding: 0; list-style: none; }
#legend li { display: flex; align-items: baseline; gap: 6px; }
.swatch { display: inline-block; width: 12px; height: 12px; border-radius: 2px;
  background: var(--c, transparent); align-self: center; }
.kindname { font-weight: 600; }
.layers { color: var(--muted); }
#tools { display: flex; gap: 10px; align-items: center; margin-top: 8px; }
#search { width: 28em; padding: 3px 6px; font: inherit; }
#count { color: var(--muted); }
#page { flex: 1; min-height: 0; display: grid; grid-template-columns: minmax(0, 1fr) minmax(320px, 38%); }
main { padding: 8px 16px 40px; min-width: 0; overflow: auto; }
aside { overflow: auto; padding: 8px 14px;
  background: var(--panel); border-left: 1px solid var(--rule); }
h2 { font-size: 15px; margin: 14px 0 6px; }
h3 { font-size: 14px; margin: 6px 0; word-break: break-all; }
.yaml, .file { font: 12.5px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; }
.line { white-space: pre; min-height: 1.45em; padding: 0 6px; cursor: pointer;
  border-left: 4px solid var(--c, transparent);
  background: color-mix(in srgb, var(--c, transparent) 11%, transparent); }
.line:hover { outline: 1px solid var(--muted); }
.line.selected { outline: 2px solid var(--fg); }
.line.hit { background: #fff1a8; }
.line.filtered { display: none; }
.deleted-list .line { text-decoration: line-through; }
.steps { margin: 0; padding-left: 22px; }
.step { margin: 0 0 10px; padding-left: 6px; border-left: 4px solid var(--c, transparent); }
.step .action { font-variant: small-caps; color: var(--muted); }
.step .detail { color: var(--muted); }
.step pre, .value { margin: 2px 0; white-space: pre-wrap; word-break: break-all; max-height: 16em;
  overflow: auto; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
.note { color: var(--muted); }
.order { margin: 4px 0; font-style: italic; }
a.src { color: #0b57d0; cursor: pointer; }
#source-head { display: flex; justify-content: space-between; align-items: baseline; }
.file { position: relative; background: #fff; border: 1px solid var(--rule); max-height: 60vh;
  overflow: auto; }
.srcline { white-space: pre; padding-right: 6px; }
.srcline::before { content: attr(data-line); display: inline-block; width: 4em; padding-right: 8px;
  text-align: right; color: var(--muted); }
.srcline.marked { background: #fff1a8; outline: 1px solid #c9a400; }
.k-runtime { --c: #4e79a7; }
.k-default { --c: #9d9d9d; }
.k-typed { --c: #b07aa1; }
.k-podTemplateOverride { --c: #f28e2b; }
.k-runtimePatch { --c: #e15759; }
.k-plugin { --c: #59a14f; }
.k-builder { --c: #d4a800; }
.k-flyte-default-template { --c: #76b7b2; }
.k-flyte-primary-template { --c: #4e79a7; }
.k-flyte-task { --c: #e15759; }
.k-flyte-plugin-config { --c: #59a14f; }
.k-flyte-task-resources { --c: #f28e2b; }
.k-flyte-execution-overrides { --c: #b07aa1; }
.k-flyte-propeller { --c: #d4a800; }
)css";
}

std::string_view PageScript() {
  return R"js(
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("data").textContent);
  var files = Object.create(null);
  (data.files || []).forEach(function (f) { files[f.name] = f.text; });
  var allLines = [];   // every line element of every object, for the search
  var lowered = [];    // their text in lower case, once

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function layerOf(step) { return data.layers[step.layer] || { name: "?", kind: "" }; }

  function locationText(at) {
    return at.line ? at.file + ":" + at.line + ":" + at.column : at.file;
  }

  function sourceLink(at) {
    var link = el("a", "src", locationText(at));
    link.href = "#";
    link.setAttribute("data-file", at.file);
    link.setAttribute("data-line", String(at.line || 0));
    return link;
  }

  // A value as the chain shows it: scalars as YAML would write them
  // (strings bare unless empty), mappings and lists as indented JSON.
  function valueText(value) {
    if (typeof value === "string") return value === "" ? "\"\"" : value;
    if (value !== null && typeof value === "object") return JSON.stringify(value, null, 2);
    return JSON.stringify(value);
  }

  function objectTitle(object) {
    var name = object.namespace ? object.namespace + "/" + object.name : object.name;
    return object.kind + " " + name;
  }

  function renderLegend() {
    var legend = document.getElementById("legend");
    var kinds = [];
    var byKind = {};
    data.layers.forEach(function (layer) {
      if (!byKind[layer.kind]) { byKind[layer.kind] = []; kinds.push(layer.kind); }
      byKind[layer.kind].push(layer);
    });
    kinds.forEach(function (kind) {
      var item = el("li", "k-" + kind);
      item.appendChild(el("span", "swatch"));
      item.appendChild(el("span", "kindname", kind));
      var names = el("span", "layers");
      byKind[kind].forEach(function (layer, i) {
        if (i > 0) names.appendChild(document.createTextNode(", "));
        names.appendChild(document.createTextNode(layer.name));
        if (layer.location) {
          names.appendChild(document.createTextNode(" "));
          names.appendChild(sourceLink(layer.location));
        }
      });
      item.appendChild(names);
      legend.appendChild(item);
    });
  }

  function lineElement(text, path, kind, objectIndex, tip, from, item) {
    var line = el("div", kind ? "line k-" + kind : "line", text);
    line.setAttribute("data-path", path);
    if (from !== undefined) line.setAttribute("data-from", from);
    if (item !== undefined) line.setAttribute("data-item", item);
    line.setAttribute("data-object", String(objectIndex));
    if (tip) line.title = tip;
    return line;
  }

  function lastStepText(field) {
    var step = field && field.chain[field.chain.length - 1];
    if (!step) return "";
    var text = (step.action === "deleted" ? "deleted by " : "") + layerOf(step).name;
    return step.location ? text + " " + locationText(step.location) : text;
  }

  function renderObjects() {
    var main = document.getElementById("objects");
    data.objects.forEach(function (object, index) {
      // Without a prototype: a path may be "constructor". A present field
      // wins over a deleted one of the same path (it was written again).
      object.byPath = Object.create(null);
      object.fields.forEach(function (field) {
        if (!object.byPath[field.path]) object.byPath[field.path] = field;
      });
      var section = el("section", "object");
      section.appendChild(el("h2", null, objectTitle(object)));
      var yaml = el("div", "yaml");
      var lines = document.createDocumentFragment();
      object.lines.forEach(function (line) {
        var field = object.byPath[line.from !== undefined ? line.from : line.path];
        var node = lineElement(line.text, line.path, line.kind, index, lastStepText(field), line.from,
                               line.item);
        lines.appendChild(node);
        allLines.push(node);
        lowered.push(line.text.toLowerCase());
      });
      yaml.appendChild(lines);
      section.appendChild(yaml);
      var deleted = object.fields.filter(function (field) { return !field.present; });
      if (deleted.length) {
        section.appendChild(el("h3", null, "Deleted by a later layer"));
        var list = el("div", "yaml deleted-list");
        deleted.forEach(function (field) {
          var step = field.chain[field.chain.length - 1];
          var node = lineElement(field.path, field.path, step ? layerOf(step).kind : "", index,
                                 lastStepText(field));
          list.appendChild(node);
          allLines.push(node);
          lowered.push(field.path.toLowerCase());
        });
        section.appendChild(list);
      }
      main.appendChild(section);
    });
  }

  var selected = null;

  function showChain(line) {
    if (selected) selected.classList.remove("selected");
    selected = line;
    line.classList.add("selected");
    var object = data.objects[Number(line.getAttribute("data-object"))];
    var path = line.getAttribute("data-path");
    var from = line.getAttribute("data-from");
    var field = object.byPath[from !== null ? from : path];
    var panel = document.getElementById("chain");
    panel.replaceChildren();
    panel.appendChild(el("h3", null, path === "" ? "(the whole object)" : path));
    panel.appendChild(el("div", "note", objectTitle(object)));
    if (!field) {
      panel.appendChild(el("p", "note", "No layer is recorded for this line."));
      return;
    }
    if (from !== null) {
      panel.appendChild(el("p", "note", "Written with " + (from === "" ? "the whole object" : from) +
                                        ", whose chain this is:"));
    }
    appendChain(panel, field);
    // "- name: x" names the item's first key; the item itself has a chain
    // and, above all, an order.
    var itemPath = line.getAttribute("data-item");
    var item = itemPath !== null && itemPath !== from ? object.byPath[itemPath] : undefined;
    if (item) {
      panel.appendChild(el("h3", null, "The list item " + item.path));
      appendChain(panel, item);
    }
  }

  function appendChain(panel, field) {
    if (!field.present) panel.appendChild(el("p", "note", "Not in the rendered object: deleted."));
    if (field.order) panel.appendChild(el("p", "order", "Order: " + field.order));
    var steps = el("ol", "steps");
    field.chain.forEach(function (step) {
      var layer = layerOf(step);
      var item = el("li", "step k-" + layer.kind);
      var head = el("div");
      head.appendChild(el("span", "kindname", layer.name));
      head.appendChild(document.createTextNode(" "));
      head.appendChild(el("span", "action", step.action));
      if (step.location) {
        head.appendChild(document.createTextNode(" "));
        head.appendChild(sourceLink(step.location));
      }
      item.appendChild(head);
      if (step.action === "set") item.appendChild(el("pre", "value", valueText(step.value)));
      if (step.detail) item.appendChild(el("div", "detail", step.detail));
      steps.appendChild(item);
    });
    panel.appendChild(steps);
  }

  function showSource(name, lineNumber) {
    var view = document.getElementById("source");
    var body = document.getElementById("source-body");
    view.hidden = false;
    document.getElementById("source-name").textContent =
        lineNumber ? name + ":" + lineNumber : name;
    body.replaceChildren();
    var text = files[name];
    if (text === undefined) {
      body.appendChild(el("p", "note", "This file is not embedded in the page."));
      return;
    }
    var lines = text.split("\n");
    if (lines.length && lines[lines.length - 1] === "") lines.pop();
    var listing = el("div", "file");
    var marked = null;
    lines.forEach(function (line, i) {
      var node = el("div", i + 1 === lineNumber ? "srcline marked" : "srcline", line);
      node.setAttribute("data-line", String(i + 1));
      if (i + 1 === lineNumber) marked = node;
      listing.appendChild(node);
    });
    body.appendChild(listing);
    // Scroll the listing only: scrollIntoView would move the panel too.
    if (marked) listing.scrollTop = marked.offsetTop - listing.clientHeight / 2;
  }

  function search() {
    var query = document.getElementById("search").value.toLowerCase();
    var hits = 0;
    for (var i = 0; i < allLines.length; i++) {
      var hit = query !== "" && lowered[i].indexOf(query) >= 0;
      if (hit) hits++;
      allLines[i].classList.toggle("hit", hit);
      allLines[i].classList.toggle("filtered", query !== "" && !hit);
    }
    document.getElementById("count").textContent =
        query === "" ? "" : hits + (hits === 1 ? " matching line" : " matching lines");
  }

  document.title = data.subject + " (" + data.target + ") - tjrender explain";
  document.getElementById("subject").textContent = data.subject;
  document.getElementById("target").textContent = data.target;
  renderLegend();
  renderObjects();

  document.addEventListener("click", function (event) {
    var link = event.target.closest("a.src");
    if (link) {
      event.preventDefault();
      showSource(link.getAttribute("data-file"), Number(link.getAttribute("data-line")));
      return;
    }
    var line = event.target.closest(".line");
    if (line) showChain(line);
  });
  document.getElementById("search").addEventListener("input", search);
  document.getElementById("search").addEventListener("keydown", function (event) {
    if (event.key === "Escape") { event.target.value = ""; search(); }
  });
  document.getElementById("source-close").addEventListener("click", function () {
    document.getElementById("source").hidden = true;
  });
})();
)js";
}

}  // namespace tjr::explain
