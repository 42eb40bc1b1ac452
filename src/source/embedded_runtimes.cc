#include "source/embedded_runtimes.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "doc/path.h"
#include "source/object_types.h"
#include "yaml/reader.h"

namespace tjr::source {
namespace {

constexpr std::string_view kTrainerGroupPrefix = "trainer.kubeflow.org/";

bool IsRuntimeDocument(const doc::Node& document) {
  if (!document.is_mapping()) return false;
  const std::string api_version = doc::StringAt(document, "apiVersion");
  const std::string kind = doc::StringAt(document, "kind");
  return api_version.rfind(kTrainerGroupPrefix, 0) == 0 && (kind == "TrainingRuntime" || kind == "ClusterTrainingRuntime");
}

// Line `number` (1-based) of `text`, without its line break; nullopt past the end.
std::optional<std::string_view> LineAt(std::string_view text, std::uint32_t number) {
  std::size_t at = 0;
  for (std::uint32_t line = 1; line < number; ++line) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) return std::nullopt;
    at = end + 1;
  }
  if (at > text.size()) return std::nullopt;
  std::size_t end = text.find('\n', at);
  std::string_view line = text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

// How lines and columns of the embedded stream map to the file.
struct Shift {
  std::uint32_t lines = 0;    // added to a line
  std::uint32_t columns = 0;  // added to a column
};

// The shift of a literal block scalar whose key stands on line `key_line`:
// its header ends that line (`key: |`, `|-`, `|+`, a comment after it),
// its text is the next lines, each `indent` spaces and the value's line.
// nullopt when the file does not hold `value` that way (a quoted string, a
// folded block, an indentation indicator).
std::optional<Shift> LiteralBlockShift(std::string_view text, std::uint32_t key_line, const std::string& value) {
  std::optional<std::string_view> header = LineAt(text, key_line);
  if (!header) return std::nullopt;
  std::size_t colon = header->find(": |");
  if (colon == std::string_view::npos) return std::nullopt;
  std::string_view rest = header->substr(colon + 3);
  if (!rest.empty() && (rest.front() == '-' || rest.front() == '+')) rest.remove_prefix(1);
  std::size_t comment = rest.find('#');
  if (rest.substr(0, comment).find_first_not_of(" \t") != std::string_view::npos) return std::nullopt;

  std::optional<std::uint32_t> indent;
  std::uint32_t line = key_line;
  std::size_t at = 0;
  while (at < value.size()) {
    std::size_t end = value.find('\n', at);
    std::string_view content(value.data() + at, (end == std::string::npos ? value.size() : end) - at);
    at = end == std::string::npos ? value.size() : end + 1;
    std::optional<std::string_view> written = LineAt(text, ++line);
    if (!written) return std::nullopt;
    if (content.empty()) continue;  // a blank line may carry any indentation
    if (!indent) {
      std::size_t spaces = written->find_first_not_of(' ');
      if (spaces == std::string_view::npos || spaces == 0) return std::nullopt;
      indent = static_cast<std::uint32_t>(spaces);
    }
    if (written->size() != *indent + content.size() || written->substr(*indent) != content ||
        written->find_first_not_of(' ') < *indent) {
      return std::nullopt;
    }
  }
  if (!indent) return std::nullopt;
  return Shift{key_line, *indent};
}

// Every location of `node` (and of its keys) moved by `shift`, or set to
// `fixed` when there is no shift.
void Relocate(doc::Node* node, const std::optional<Shift>& shift, const Location& fixed) {
  auto move = [&](Location at) {
    if (!shift) return fixed;
    at.file = fixed.file;
    if (at.line != 0) at.line += shift->lines;
    if (at.column != 0) at.column += shift->columns;
    return at;
  };
  node->set_location(move(node->location()));
  if (node->is_sequence()) {
    for (doc::Node& item : node->mutable_items()) Relocate(&item, shift, fixed);
  } else if (node->is_mapping()) {
    for (doc::Field& field : node->mutable_fields()) {
      field.key_location = move(field.key_location);
      Relocate(&field.value, shift, fixed);
    }
  }
}

// The runtimes `configmap` carries, located in the file; empty when it is
// no runtimes ConfigMap.
std::vector<doc::Node> RuntimesOf(std::string_view text, const doc::Node& configmap, Diagnostics* diagnostics) {
  if (!configmap.is_mapping() || doc::StringAt(configmap, "apiVersion") != "v1" ||
      doc::StringAt(configmap, "kind") != "ConfigMap") {
    return {};
  }
  const doc::Node* data = configmap.Find("data");
  if (data == nullptr || !data->is_mapping()) return {};
  const doc::Field* field = nullptr;
  for (const doc::Field& f : data->fields()) {
    if (f.key == kEmbeddedRuntimesKey) field = &f;
  }
  if (field == nullptr || !field->value.is_string()) return {};
  const std::string& embedded = field->value.string_value();
  const Location at = field->value.location().known() ? field->value.location() : field->key_location;
  const std::string file = at.file != nullptr ? *at.file : "";
  Result<std::vector<doc::Node>> documents = yaml::ReadStream(embedded, file);
  std::optional<Shift> shift;
  if (field->key_location.line != 0) shift = LiteralBlockShift(text, field->key_location.line, embedded);
  if (!documents.ok()) {
    if (embedded.find(kTrainerGroupPrefix) == std::string::npos) return {};
    Diagnostic error = documents.take_error();
    Location where = error.location;
    if (shift && where.line != 0) {
      where.line += shift->lines;
      if (where.column != 0) where.column += shift->columns;
    } else {
      where = at;
    }
    error.location = where;
    error.field_path = "data[" + std::string(kEmbeddedRuntimesKey) + "]";
    error.message = "the Trainer runtimes this ConfigMap carries cannot be read: " + error.message;
    diagnostics->push_back(AsInputError(std::move(error)));
    return {};
  }
  std::vector<doc::Node> runtimes;
  for (doc::Node& document : *documents) {
    if (document.is_null()) continue;
    if (!IsRuntimeDocument(document)) return {};  // not (only) runtimes: some other ConfigMap
    Relocate(&document, shift, at);
    runtimes.push_back(std::move(document));
  }
  return runtimes;
}

}  // namespace

void ExpandEmbeddedRuntimes(std::string_view text, std::vector<doc::Node>* documents, Diagnostics* diagnostics) {
  // Cheap test first: most files hold no such key.
  if (text.find(kEmbeddedRuntimesKey) == std::string_view::npos) return;
  std::vector<doc::Node> out;
  for (doc::Node& document : *documents) {
    std::vector<doc::Node> runtimes = RuntimesOf(text, document, diagnostics);
    if (!runtimes.empty()) {
      Diagnostic note = MakeError(document.location(), "data[" + std::string(kEmbeddedRuntimesKey) + "]",
                                  "read " + std::to_string(runtimes.size()) +
                                      " Trainer runtime(s) from this ConfigMap (the kubeflow-trainer chart's "
                                      "runtimes installer applies them)");
      note.severity = Severity::kNote;
      diagnostics->push_back(std::move(note));
    }
    out.push_back(std::move(document));
    for (doc::Node& runtime : runtimes) out.push_back(std::move(runtime));
  }
  *documents = std::move(out);
}

}  // namespace tjr::source
