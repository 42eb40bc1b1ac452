#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "explain/formats.h"
#include "explain/html_page.h"
#include "explain/json_format.h"
#include "explain/paths.h"
#include "json/json.h"
#include "yaml/writer.h"

// The page is the JSON document plus what only the page needs: the input
// files, and each object as the YAML lines `render` prints, each with the
// path of the node it shows and the kind of the layer that wrote it. The
// lines are computed here, not in the script: the YAML writer's quoting
// and folding are Go's, and the paths must be the chains' own.
namespace tjr::explain {
namespace {

using doc::Node;

struct Line {
  std::string path;
  std::string kind;
  /// The path of the field whose chain the line shows when its own node has
  /// none (a key of an item only the whole item's chain records), with
  /// `inherited`; the page shows that chain.
  std::string from;
  bool inherited = false;
  /// The list item that starts on the line ("- name: x" shows the item's
  /// first key, but the item has its own chain and order); empty if none.
  std::string item;
};

std::size_t LineOf(const std::vector<std::size_t>& starts, std::size_t offset) {
  return static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), offset) - starts.begin()) - 1;
}

std::size_t SkipSpace(const std::string& text, std::size_t at) {
  while (at < text.size() && (text[at] == ' ' || text[at] == '\n')) ++at;
  return at;
}

// The lines of `object` as yaml::Write writes them. A line belongs to the
// deepest node that has written anything on it: a mapping value from its
// key's line, a list item from its "-" line, to the node's last byte. The
// items of a scalar list belong to the list: it is one value.
Node ObjectLines(const Explanation& explanation, const ObjectExplanation& object) {
  std::unordered_map<std::string_view, const Field*> fields;
  for (const Field& field : object.fields) {
    if (field.present) fields.emplace(field.path, &field);
  }
  std::string text;
  std::vector<yaml::WrittenSpan> spans;
  yaml::WriteWithSpans(object.object, &text, &spans);
  std::vector<std::size_t> starts = {0};
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' && i + 1 < text.size()) starts.push_back(i + 1);
  }

  std::vector<std::string> paths(spans.size());
  std::vector<std::string> kinds(spans.size());
  // The span whose field colours and explains each span: its own, or the
  // nearest ancestor's that has one.
  std::vector<std::size_t> explained_by(spans.size(), yaml::WrittenSpan::npos);
  std::vector<std::string> list_keys(spans.size());
  std::vector<std::size_t> last_child(spans.size(), yaml::WrittenSpan::npos);
  std::vector<Line> lines(text.empty() ? 0 : starts.size());
  for (std::size_t i = 0; i < spans.size(); ++i) {
    const yaml::WrittenSpan& span = spans[i];
    std::size_t entry = span.begin;
    if (span.parent != yaml::WrittenSpan::npos) {
      const yaml::WrittenSpan& parent = spans[span.parent];
      if (parent.node->is_sequence()) {
        if (IsScalarList(*parent.node)) continue;
        paths[i] = ItemPath(paths[span.parent], *parent.node, span.index, list_keys[span.parent]);
      } else {
        paths[i] = ChildPath(paths[span.parent], span.key);
        // The value follows its key: the entry starts where the mapping
        // does, or after the previous entry.
        std::size_t previous = last_child[span.parent];
        entry = previous == yaml::WrittenSpan::npos ? parent.begin : SkipSpace(text, spans[previous].end);
      }
      last_child[span.parent] = i;
      kinds[i] = kinds[span.parent];
      explained_by[i] = explained_by[span.parent];
    }
    if (span.node->is_sequence()) list_keys[i] = ListKeyOf(*span.node);
    auto field = fields.find(paths[i]);
    if (field != fields.end() && !field->second->chain.empty()) {
      explained_by[i] = i;
      std::size_t layer = field->second->chain.back().layer;
      if (layer < explanation.layers.size()) kinds[i] = LayerKindName(explanation.layers[layer].kind);
    }
    if (lines.empty()) continue;
    Line owner{paths[i], kinds[i], {}, false, {}};
    if (explained_by[i] != i && explained_by[i] != yaml::WrittenSpan::npos) {
      owner.from = paths[explained_by[i]];
      owner.inherited = true;
    }
    std::size_t first = LineOf(starts, entry);
    std::size_t last = LineOf(starts, std::max(span.end, entry + 1) - 1);
    const std::string item = span.index != yaml::WrittenSpan::npos ? paths[i] : lines[first].item;
    for (std::size_t line = first; line <= last; ++line) lines[line] = owner;
    lines[first].item = item;
  }

  Node out = Node::Sequence();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::size_t end = i + 1 < starts.size() ? starts[i + 1] - 1 : text.size();
    if (end > starts[i] && text[end - 1] == '\n') --end;  // the last line's break
    Node line = Node::Mapping();
    line.Set("text", Node::String(text.substr(starts[i], end - starts[i])));
    line.Set("path", Node::String(lines[i].path));
    line.Set("kind", Node::String(lines[i].kind));
    if (lines[i].inherited) line.Set("from", Node::String(lines[i].from));
    if (!lines[i].item.empty() && lines[i].item != lines[i].path) {
      line.Set("item", Node::String(lines[i].item));
    }
    out.push_back(std::move(line));
  }
  return out;
}

Node PageData(const Explanation& explanation) {
  Node data = ExplanationDocument(explanation);
  std::vector<Node>& objects = data.FindMutable("objects")->mutable_items();
  for (std::size_t i = 0; i < objects.size(); ++i) {
    objects[i].Set("lines", ObjectLines(explanation, explanation.objects[i]));
  }
  Node files = Node::Sequence();
  for (const Explanation::InputFile& file : explanation.files) {
    Node entry = Node::Mapping();
    entry.Set("name", Node::String(file.name));
    entry.Set("text", Node::String(file.text));
    files.push_back(std::move(entry));
  }
  data.Set("files", std::move(files));
  return data;
}

// JSON inside <script>: the HTML parser ends the element at the first
// "</script" and treats "<!--" specially, whatever the JSON means. The
// writer already escapes '<' in strings; this keeps the page safe if it
// ever stops ("\/" and "\u003c" are JSON escapes, and '<' occurs in JSON
// only inside strings).
std::string EscapeScriptData(const std::string& json) {
  std::string out;
  out.reserve(json.size());
  for (std::size_t i = 0; i < json.size(); ++i) {
    if (json.compare(i, 2, "</") == 0) {
      out += "<\\/";
      ++i;
    } else if (json.compare(i, 4, "<!--") == 0) {
      out += "\\u003c";
    } else {
      out += json[i];
    }
  }
  return out;
}

std::string EscapeHtml(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// The page's fixed body; the script fills it. The Content-Security-Policy
// lets the inline style and scripts run and nothing load: a value that
// looks like markup or a URL stays text.
constexpr std::string_view kBody = R"html(</head>
<body>
<header>
<h1><span id="subject"></span> <span class="target" id="target"></span></h1>
<ul id="legend"></ul>
<div id="tools"><input id="search" type="search" placeholder="Search the lines" aria-label="Search the lines"> <span id="count"></span></div>
</header>
<div id="page">
<main id="objects"></main>
<aside>
<section id="chain"><p class="note">Click a line to see every layer that wrote its value.</p></section>
<section id="source" hidden>
<div id="source-head"><h3 id="source-name"></h3><button id="source-close" type="button">Close</button></div>
<div id="source-body"></div>
</section>
</aside>
</div>
)html";

}  // namespace

std::string FormatHtml(const Explanation& explanation) {
  std::string page =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  page += "<title>" + EscapeHtml(explanation.subject) + " - tjrender explain</title>\n<style>";
  page += PageStyle();
  page += "</style>\n";
  page += kBody;
  page += "<script type=\"application/json\" id=\"data\">";
  page += EscapeScriptData(json::Write(PageData(explanation), /*pretty=*/false));
  page += "</script>\n<script>";
  page += PageScript();
  page += "</script>\n</body>\n</html>\n";
  return page;
}

}  // namespace tjr::explain
