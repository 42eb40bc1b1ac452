// The KRM function's reading of a ResourceList from kpt
// (integrate/krm.h ReadResourceList) and the mapping of its items' lines
// to their files (integrate/item_origin.h: LocateItems, PlaceFromFiles,
// FileLocation). The input is the ResourceList, and after a line "%%" the
// bytes of the file every item's path annotation names (none: no file is
// found). Never a crash or a hang; an error is located; each item has an
// origin whose bytes and lines lie inside the ResourceList; every node of
// every item maps to a location with a line no smaller than 1 (or to its
// file alone); the same bytes give the same origins and locations twice.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "line_count.h"
#include "integrate/item_origin.h"
#include "integrate/krm.h"

namespace {

constexpr char kListFile[] = "<stdin>";

void MapNodes(const std::vector<tjr::integrate::ItemOrigin>& origins, const tjr::doc::Node& node, std::string* out) {
  const tjr::Location at = tjr::integrate::FileLocation(origins, kListFile, node.location());
  if (at.known() && at.line == 0 && at.column != 0) __builtin_trap();  // a column without a line
  *out += at.ToString() + "\n";
  if (node.is_sequence()) {
    for (const tjr::doc::Node& item : node.items()) MapNodes(origins, item, out);
  } else if (node.is_mapping()) {
    for (const tjr::doc::Field& field : node.fields()) MapNodes(origins, field.value, out);
  }
}

std::string Read(std::string_view list_text, std::optional<std::string_view> file) {
  tjr::Result<tjr::integrate::ResourceList> list = tjr::integrate::ReadResourceList(list_text, kListFile);
  if (!list.ok()) {
    if (!list.error().location.known()) __builtin_trap();
    return list.error().ToString();
  }
  if (list->origins.size() != list->items.size()) __builtin_trap();
  const std::uint32_t lines = tjr::fuzz::MostLines(list_text);
  tjr::integrate::PlaceFromFiles(&list->origins, list->items,
                                 [&](const std::string&) -> std::optional<std::string> {
                                   if (!file) return std::nullopt;
                                   return std::string(*file);
                                 });
  std::string out;
  for (const tjr::integrate::ItemOrigin& origin : list->origins) {
    if (origin.begin > origin.end || origin.end > list_text.size()) __builtin_trap();  // bytes outside the list
    if (origin.first_line < 1 || origin.first_line > lines) __builtin_trap();
    if (origin.block && (origin.last_line < origin.first_line || origin.last_line > lines)) __builtin_trap();
    out += origin.name + " " + std::to_string(origin.first_line) + "-" + std::to_string(origin.last_line) + " @" +
           std::to_string(origin.file_line) + "\n";
  }
  for (const tjr::doc::Node& item : list->items) MapNodes(list->origins, item, &out);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string_view list = text;
  std::optional<std::string_view> file;
  const std::size_t cut = text.starts_with("%%\n") ? 0 : text.find("\n%%\n");
  if (cut != std::string_view::npos) {
    list = text.substr(0, cut == 0 ? 0 : cut + 1);
    file = text.substr(cut == 0 ? 3 : cut + 4);
  }
  if (Read(list, file) != Read(list, file)) __builtin_trap();  // not deterministic
  return 0;
}
