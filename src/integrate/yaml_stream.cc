#include "integrate/yaml_stream.h"

#include <cstdint>
#include <string>

#include "yaml/reader.h"

namespace tjr::integrate {
namespace {

bool IsMarker(std::string_view line) {
  if (line.substr(0, 3) != "---") return false;
  if (line.size() == 3) return true;
  return line[3] == ' ' || line[3] == '\t' || line[3] == '\r';
}

}  // namespace

std::vector<RawDocument> SplitDocuments(std::string_view stream) {
  std::vector<RawDocument> documents;
  std::size_t start = 0;
  std::size_t start_line = 1;
  std::size_t line = 1;
  std::size_t at = 0;
  while (at < stream.size()) {
    std::size_t end = stream.find('\n', at);
    std::size_t next = end == std::string_view::npos ? stream.size() : end + 1;
    std::string_view text = stream.substr(at, (end == std::string_view::npos ? stream.size() : end) - at);
    if (IsMarker(text) && at > start) {
      documents.push_back({stream.substr(start, at - start), start_line});
      start = at;
      start_line = line;
    }
    at = next;
    ++line;
  }
  if (start < stream.size() || documents.empty()) {
    documents.push_back({stream.substr(start), start_line});
  }
  return documents;
}

Result<std::vector<doc::Node>> ParseDocument(const RawDocument& raw, std::string_view source_name) {
  // Every location on its line in the whole stream. (Padding the text with
  // the lines before it made a stream of N documents cost N² bytes read.)
  yaml::ReadOptions options;
  options.first_line = static_cast<std::uint32_t>(raw.first_line);
  return yaml::ReadStream(raw.text, source_name, options);
}

}  // namespace tjr::integrate
