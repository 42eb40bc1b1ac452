#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/location.h"
#include "doc/node.h"
#include "yaml/reader_spans.h"

// Where the items of a KRM ResourceList came from, so that a finding about
// an item names the user's file and line instead of a line of the
// ResourceList on stdin.
//
// kpt reads each file of a package with kyaml and hands every document over
// as one item: the document's own lines, indented under `items:`, plus the
// annotations it adds (`internal.config.kubernetes.io/*`,
// `config.kubernetes.io/path|index`, `config.k8s.io/id`), which it strips
// again when it writes the file back. Those annotations name the file and
// the document's index in it, never its line; a document's first line is
// therefore 1 plus the lines of the documents before it in the same file
// and their `---` separators, known only when those documents are items too.
// This is exact for files in the form kpt itself writes them (which every
// `kpt fn eval` that writes leaves behind); see docs/integrations.md "KRM function".
namespace tjr::integrate {

struct ItemOrigin {
  std::string path;  ///< the path annotation; empty when the item has none (kustomize)
  long index = 0;    ///< the document's index in `path` (the spec's default: 0)
  /// How findings name the file: `path`, or `items[N]` without one.
  std::string name;
  /// Written in block style, so its lines are the lines of its document.
  /// Flow items (JSON) map to their file without a line.
  bool block = false;
  /// Its extent in the ResourceList: lines (1-based) and, for flow items,
  /// columns; a block item starts at the line of its `-`.
  std::uint32_t first_line = 0;
  std::uint32_t first_column = 0;
  std::uint32_t last_line = 0;
  std::uint32_t last_column = 0;
  /// Its bytes in the ResourceList: in a block list from the start of its
  /// `-` line to the next item's (the last one to the end of the `items`
  /// entry), in a flow list its own text.
  std::size_t begin = 0;
  std::size_t end = 0;
  /// Columns its text is indented by in the ResourceList.
  std::uint32_t indent = 0;
  /// ResourceList lines holding only annotations the orchestrator added.
  std::vector<std::uint32_t> added_lines;
  /// kpt sends every item with compact lists (`-` under its key) but writes
  /// a document it read with wide ones (`internal.config.kubernetes.io/
  /// seqindent: wide`) back wide: each such list indents what it holds by 2
  /// more columns in the file. Their extents in the ResourceList.
  struct Span {
    std::uint32_t first_line, first_column, last_line, last_column;
  };
  std::vector<Span> widened_lists;
  /// The line of its document's first line in `path`; 0 when unknown.
  std::uint32_t file_line = 0;
  /// The line (in the ResourceList) where the item's mapping begins: its
  /// first key, below any head comment the item carries.
  std::uint32_t node_line = 0;

  /// Lines of its document in the file (added annotations left out).
  std::uint32_t line_count() const {
    return last_line - first_line + 1 - static_cast<std::uint32_t>(added_lines.size());
  }
};

/// Every item's origin. `items` is the span of the `items` sequence in
/// `text`, `nodes` its parsed items (same order), and `items_end` the offset
/// where the `items` entry ends (the next top-level key's line, or the end
/// of the mapping's last line).
std::vector<ItemOrigin> LocateItems(std::string_view text, const yaml::SpanNode& items,
                                    const std::vector<doc::Node>& nodes, std::size_t items_end);

/// The bytes of an item's file (its path annotation, as a path from the
/// working directory); nullopt when there is no such file.
using ItemFileReader = std::function<std::optional<std::string>(const std::string& path)>;

/// Corrects file_line from the items' files themselves where `read` finds
/// them: a block item whose file holds, at the item's index, a document equal
/// to the item (orchestrator annotations left out) starts where that
/// document's mapping starts, less the head comment the item carries. That is
/// exact where counting is not: kyaml keeps a head comment separated from the
/// document by a blank line on the document node, which the ResourceList
/// leaves out (kustomize kyaml/kio/byteio_reader.go decode; kpt writes it back
/// without the blank line), and `kpt fn eval --match-*` sends only the
/// documents it selects. Items whose file is not found keep the count.
void PlaceFromFiles(std::vector<ItemOrigin>* origins, const std::vector<doc::Node>& items,
                    const ItemFileReader& read);

/// The item a ResourceList location lies in, or nullptr.
const ItemOrigin* OriginAt(const std::vector<ItemOrigin>& origins, const Location& at);

/// `at`, a location in the ResourceList (`list_file`), as a location in its
/// item's file: line and column when they are known, the file alone when
/// not; `at` itself when it is not in an item.
Location FileLocation(const std::vector<ItemOrigin>& origins, const std::string& list_file,
                      const Location& at);

/// `at`, a location in the ResourceList that lies in `origin`'s item, as a
/// location in its file (FileLocation for one known item).
Location LocationInFile(const ItemOrigin& origin, const Location& at);

/// Whether an annotation is one an orchestrator adds to items and strips
/// when it writes them to files.
bool IsOrchestratorAnnotation(std::string_view key);

}  // namespace tjr::integrate
