#include "explain/field_query.h"

#include <cctype>

#include "explain/paths.h"
#include "json/json.h"

namespace tjr::explain {
namespace {

struct Segment {
  bool bracket = false;
  std::string text;
};

Result<std::vector<Segment>> Parse(std::string_view query) {
  std::vector<Segment> out;
  std::size_t i = 0;
  if (!query.empty() && query[0] == '.') i = 1;
  while (i < query.size()) {
    if (query[i] == '[') {
      const std::size_t end = query.find(']', i);
      if (end == std::string_view::npos) {
        return MakeError({}, "", "--field " + std::string(query) + ": '[' at " + std::to_string(i + 1) +
                                     " is not closed");
      }
      out.push_back({true, std::string(query.substr(i + 1, end - i - 1))});
      i = end + 1;
      if (i < query.size() && query[i] == '.') ++i;
      continue;
    }
    std::size_t end = i;
    while (end < query.size() && query[end] != '.' && query[end] != '[') ++end;
    if (end == i) return MakeError({}, "", "--field " + std::string(query) + ": an empty key at " + std::to_string(i + 1));
    out.push_back({false, std::string(query.substr(i, end - i))});
    i = end;
    if (i < query.size() && query[i] == '.') ++i;
  }
  return out;
}

bool AllDigits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (std::isdigit(static_cast<unsigned char>(c)) == 0) return false;
  }
  return true;
}

std::string ScalarText(const doc::Node& value) {
  return value.is_string() ? value.string_value() : json::Write(value, false);
}

// The query in Field::path form, read against `object` where it can be
// (an index becomes the item's key), literally where it cannot (a deleted
// field).
std::string Canonical(const std::vector<Segment>& segments, const doc::Node& object) {
  std::string path;
  const doc::Node* node = &object;
  for (const Segment& segment : segments) {
    if (!segment.bracket) {
      path = ChildPath(path, segment.text);
      node = node != nullptr && node->is_mapping() ? node->Find(segment.text) : nullptr;
      continue;
    }
    if (node != nullptr && node->is_sequence() && !IsScalarList(*node)) {
      const std::size_t eq = segment.text.find('=');
      std::size_t found = node->size();
      if (eq != std::string::npos) {
        const std::string key = segment.text.substr(0, eq);
        const std::string value = segment.text.substr(eq + 1);
        for (std::size_t i = 0; i < node->size(); ++i) {
          const doc::Node* field = (*node)[i].is_mapping() ? (*node)[i].Find(key) : nullptr;
          if (field != nullptr && field->is_scalar() && ScalarText(*field) == value) {
            found = i;
            break;
          }
        }
      } else if (AllDigits(segment.text)) {
        found = std::stoul(segment.text);
      }
      if (found < node->size()) {
        path = ItemPath(path, *node, found);
        node = &(*node)[found];
        continue;
      }
    } else if (node != nullptr && node->is_mapping() && node->Find(segment.text) != nullptr) {
      path = ChildPath(path, segment.text);
      node = node->Find(segment.text);
      continue;
    }
    path += "[" + segment.text + "]";
    node = nullptr;
  }
  return path;
}

bool Below(const std::string& path, const std::string& prefix) {
  if (prefix.empty()) return true;
  if (path.size() < prefix.size() || path.compare(0, prefix.size(), prefix) != 0) return false;
  return path.size() == prefix.size() || path[prefix.size()] == '.' || path[prefix.size()] == '[';
}

}  // namespace

Result<std::vector<Selection>> SelectFields(const Explanation& explanation, std::string_view query) {
  Result<std::vector<Segment>> segments = Parse(query);
  if (!segments.ok()) return segments.take_error();
  std::vector<Selection> out;
  std::string closest;
  for (const ObjectExplanation& object : explanation.objects) {
    const std::string path = Canonical(*segments, object.object);
    Selection selection{&object, {}};
    for (const Field& field : object.fields) {
      if (Below(field.path, path)) selection.fields.push_back(&field);
      if (Below(path, field.path) && field.path.size() > closest.size()) closest = field.path;
    }
    if (!selection.fields.empty()) out.push_back(std::move(selection));
  }
  if (out.empty()) {
    return MakeError({}, "", "--field " + std::string(query) + ": no rendered object has this field" +
                                 (closest.empty() ? std::string() : "; the closest that exists is " + closest));
  }
  return out;
}

}  // namespace tjr::explain
