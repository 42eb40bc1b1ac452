#include "integrate/resource_list_edit.h"

#include <algorithm>
#include <string_view>

#include "json/json.h"
#include "yaml/writer.h"

namespace tjr::integrate {
namespace {

struct Splice {
  std::size_t begin;
  std::size_t end;
  std::string text;
};

std::size_t LineStart(std::string_view text, std::size_t at) {
  while (at > 0 && text[at - 1] != '\n') --at;
  return at;
}

// The offset after the line break that ends the line holding text[at - 1].
std::size_t AfterLine(std::string_view text, std::size_t at) {
  std::size_t newline = text.find('\n', at > 0 ? at - 1 : 0);
  return newline == std::string_view::npos ? text.size() : newline + 1;
}

bool UsesCrlf(std::string_view text) {
  std::size_t newline = text.find('\n');
  return newline != std::string_view::npos && newline > 0 && text[newline - 1] == '\r';
}

std::string WithLineBreaks(std::string text, bool crlf) {
  if (!crlf) return text;
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  for (char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

// Objects as entries of a block sequence whose `-` is indented by `indent`.
std::string BlockEntries(const std::vector<doc::Node>& objects, std::string_view indent) {
  std::string out;
  for (const doc::Node& object : objects) {
    std::string yaml = yaml::Write(object);
    std::size_t at = 0;
    bool first = true;
    while (at < yaml.size()) {
      std::size_t newline = yaml.find('\n', at);
      std::string_view line(yaml.data() + at, (newline == std::string::npos ? yaml.size() : newline) - at);
      if (!line.empty()) {
        out.append(indent);
        out += first ? "- " : "  ";
        out.append(line);
      }
      out += '\n';
      first = false;
      at = newline == std::string::npos ? yaml.size() : newline + 1;
    }
  }
  return out;
}

std::size_t EntryIndex(const yaml::SpanNode& root, std::string_view key) {
  for (std::size_t i = 0; i < root.entries.size(); ++i) {
    if (root.entries[i].key.text == key) return i;
  }
  return root.entries.size();
}

bool Changes(const ItemEdit& edit) { return !edit.keep || !edit.added.empty(); }

// The items of a block list: each changed item's lines replaced.
void EditBlockItems(const ResourceList& list, const std::vector<ItemEdit>& edits,
                    const yaml::SpanNode::Entry& entry, bool crlf, std::vector<Splice>* splices) {
  std::string_view text = list.text;
  const std::vector<ItemOrigin>& origins = list.origins;
  std::size_t first = origins.front().begin;
  std::size_t dash = text.find('-', first);
  std::string indent(text.substr(first, dash == std::string_view::npos ? 0 : dash - first));
  bool any = false;
  std::vector<Splice> items;
  for (std::size_t k = 0; k < origins.size(); ++k) {
    const ItemEdit& edit = edits[k];
    if (edit.keep || !edit.added.empty()) any = true;
    if (!Changes(edit)) continue;
    std::string replacement;
    if (edit.keep) {
      replacement = std::string(text.substr(origins[k].begin, origins[k].end - origins[k].begin));
      if (!replacement.empty() && replacement.back() != '\n') replacement += crlf ? "\r\n" : "\n";
    }
    replacement += WithLineBreaks(BlockEntries(edit.added, indent), crlf);
    items.push_back({origins[k].begin, origins[k].end, std::move(replacement)});
  }
  if (any) {
    splices->insert(splices->end(), items.begin(), items.end());
    return;
  }
  // Nothing left: an empty list, not a key without a value (null).
  std::size_t end = origins.back().end;
  std::string empty = ": []";
  if (end > 0 && text[end - 1] == '\n') empty += crlf ? "\r\n" : "\n";
  splices->push_back({entry.key.end, end, empty});
}

// The items of a flow (JSON) list, written again from the kept items' own
// text and the added objects as JSON.
void EditFlowItems(const ResourceList& list, const std::vector<ItemEdit>& edits,
                   const yaml::SpanNode& value, std::vector<Splice>* splices) {
  std::string out = "[";
  auto append = [&](std::string_view part) {
    if (out.size() > 1) out += ", ";
    out.append(part);
  };
  for (std::size_t k = 0; k < list.origins.size(); ++k) {
    const ItemOrigin& origin = list.origins[k];
    if (edits[k].keep) append(std::string_view(list.text).substr(origin.begin, origin.end - origin.begin));
    for (const doc::Node& object : edits[k].added) append(json::Write(object, false));
  }
  out += "]";
  splices->push_back({value.begin, value.end, std::move(out)});
}

void EditItems(const ResourceList& list, const std::vector<ItemEdit>& edits, bool crlf,
               std::vector<Splice>* splices) {
  if (edits.size() != list.origins.size() || std::none_of(edits.begin(), edits.end(), Changes)) return;
  const yaml::SpanNode& root = list.spans;
  const yaml::SpanNode::Entry& entry = root.entries[EntryIndex(root, "items")];
  if (entry.value.flow) {
    EditFlowItems(list, edits, entry.value, splices);
  } else {
    EditBlockItems(list, edits, entry, crlf, splices);
  }
}

void EditResults(const ResourceList& list, const doc::Node& results, bool crlf,
                 std::vector<Splice>* splices) {
  std::string_view text = list.text;
  const yaml::SpanNode& root = list.spans;
  std::size_t at = EntryIndex(root, "results");
  bool present = at < root.entries.size();
  if (root.flow) {
    if (present) {
      const yaml::SpanNode& value = root.entries[at].value;
      splices->push_back({value.begin, value.end, json::Write(results, false)});
    } else if (!results.empty()) {
      std::size_t end = root.entries.back().value.end;
      splices->push_back({end, end, ", \"results\": " + json::Write(results, false)});
    }
    return;
  }
  std::size_t after = AfterLine(text, root.end);
  if (present) {
    std::size_t next = at + 1 < root.entries.size() ? LineStart(text, root.entries[at + 1].key.begin) : after;
    splices->push_back({LineStart(text, root.entries[at].key.begin), next, ""});
  }
  if (results.empty()) return;
  doc::Node entry = doc::Node::Mapping();
  entry.Set("results", results);
  std::string block = yaml::Write(entry);
  if (after == text.size() && !text.empty() && text.back() != '\n') block = "\n" + block;
  splices->push_back({after, after, WithLineBreaks(std::move(block), crlf)});
}

}  // namespace

std::string EditResourceList(const ResourceList& list, const std::vector<ItemEdit>& edits,
                             const doc::Node& results) {
  bool crlf = UsesCrlf(list.text);
  std::vector<Splice> splices;
  EditItems(list, edits, crlf, &splices);
  EditResults(list, results, crlf, &splices);
  std::stable_sort(splices.begin(), splices.end(),
                   [](const Splice& a, const Splice& b) { return a.begin < b.begin; });
  std::string out;
  std::size_t at = 0;
  for (const Splice& splice : splices) {
    out.append(list.text, at, splice.begin - at);
    out += splice.text;
    at = splice.end;
  }
  out.append(list.text, at, std::string::npos);
  return out;
}

}  // namespace tjr::integrate
