#include "conformance/case.h"

#include <algorithm>
#include <sstream>
#include <system_error>

#include "base/file.h"
#include "json/json.h"
#include "yaml/reader.h"

namespace tjr::conformance {
namespace fs = std::filesystem;
namespace {

Diagnostic CaseError(const fs::path& file, std::string message) {
  return AsInputError(MakeError(Location{InternSourceName(file.string())}, "", std::move(message)));
}

Diagnostic NodeError(const doc::Node& node, std::string field, std::string message) {
  return AsInputError(MakeError(node.location(), std::move(field), std::move(message)));
}

std::vector<std::string> SplitWords(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

Status ParseCommand(const doc::Node& value, std::vector<std::string>* command) {
  if (value.is_string()) {
    *command = SplitWords(value.string_value());
    return Ok();
  }
  if (!value.is_sequence()) {
    return NodeError(value, "command", "must be a list of strings or a string");
  }
  for (const doc::Node& item : value.items()) {
    if (!item.is_string()) return NodeError(item, "command", "every item must be a string");
    command->push_back(item.string_value());
  }
  return Ok();
}

bool HasExtension(std::string_view name, std::string_view extension) {
  return name.size() > extension.size() && name.ends_with(extension);
}

Result<InputFile> ReadInput(const fs::path& dir, const std::string& file_name,
                            Diagnostics* parse_errors) {
  InputFile input;
  input.name = std::string(kInputDir) + "/" + file_name;
  auto text = ReadFile((dir / kInputDir / file_name).string());
  if (!text.ok()) return text.take_error();
  input.text = *text;
  if (HasExtension(file_name, ".json")) {
    auto document = json::Read(*text, input.name);
    if (document.ok()) {
      input.documents.push_back(std::move(document).value());
    } else {
      parse_errors->push_back(document.take_error());
    }
  } else {
    auto documents = yaml::ReadStream(*text, input.name);
    if (documents.ok()) {
      input.documents = std::move(documents).value();
    } else {
      parse_errors->push_back(documents.take_error());
    }
  }
  return input;
}

Status ReadInputs(Case* c) {
  const fs::path input_dir = c->dir / kInputDir;
  std::error_code error;
  if (!fs::is_directory(input_dir, error)) {
    return CaseError(input_dir, "a case needs an input/ folder");
  }
  std::vector<std::string> names;
  for (fs::directory_iterator it(input_dir, error), end; !error && it != end;
       it.increment(error)) {
    std::string name = it->path().filename().string();
    if (name.starts_with(".")) continue;
    if (it->is_directory(error)) {
      return CaseError(it->path(), "input/ may hold only files, not folders");
    }
    if (!HasExtension(name, ".yaml") && !HasExtension(name, ".yml") &&
        !HasExtension(name, ".json")) {
      return CaseError(it->path(), "input files must be *.yaml, *.yml or *.json");
    }
    names.push_back(std::move(name));
  }
  if (error) return CaseError(input_dir, "cannot list: " + error.message());
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    auto input = ReadInput(c->dir, name, &c->input_errors);
    if (!input.ok()) return input.take_error();
    c->inputs.push_back(std::move(input).value());
  }
  return Ok();
}

Status ReadExpectedObjects(Case* c) {
  const fs::path path = c->dir / kExpectedObjectsFile;
  auto text = ReadFile(path.string());
  if (!text.ok()) return text.take_error();
  auto documents = yaml::ReadStream(*text, path.string());
  if (!documents.ok()) return AsInputError(documents.take_error());
  for (const doc::Node& document : *documents) {
    if (!document.is_mapping()) {
      return NodeError(document, "", "every document of expected.yaml must be an object");
    }
  }
  c->expected_objects = std::move(documents).value();
  return Ok();
}

Status ReadExpectedErrors(Case* c) {
  const fs::path path = c->dir / kExpectedErrorsFile;
  auto text = ReadFile(path.string());
  if (!text.ok()) return text.take_error();
  std::istringstream in(*text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    c->expected_errors.push_back(line);
  }
  if (c->expected_errors.empty()) {
    return CaseError(path, "expected-errors.txt needs at least one non-blank line");
  }
  return Ok();
}

Status ReadExpectation(Case* c) {
  std::error_code error;
  const bool objects = fs::exists(c->dir / kExpectedObjectsFile, error);
  const bool errors = fs::exists(c->dir / kExpectedErrorsFile, error);
  if (objects && errors) {
    return CaseError(c->dir / kExpectedErrorsFile,
                     "a case expects either objects (expected.yaml) or errors "
                     "(expected-errors.txt), not both");
  }
  if (objects) {
    c->expectation = Expectation::kObjects;
    return ReadExpectedObjects(c);
  }
  if (errors) {
    c->expectation = Expectation::kErrors;
    return ReadExpectedErrors(c);
  }
  c->expectation = Expectation::kNone;
  return Ok();
}

std::string CaseName(const fs::path& dir) {
  std::error_code error;
  fs::path path = fs::weakly_canonical(dir, error);
  if (error) path = dir.lexically_normal();
  if (path.filename().empty()) path = path.parent_path();
  std::string parent = path.parent_path().filename().string();
  std::string name = path.filename().string();
  return parent.empty() ? name : parent + "/" + name;
}

}  // namespace

Result<CaseSpec> ParseCaseSpec(std::string_view text, std::string_view source_name) {
  auto documents = yaml::ReadStream(text, source_name);
  if (!documents.ok()) return AsInputError(documents.take_error());
  if (documents->size() != 1 || !documents->front().is_mapping()) {
    return AsInputError(MakeError(Location{InternSourceName(source_name)}, "",
                                  "case.yaml must hold exactly one mapping"));
  }
  const doc::Node& root = documents->front();
  CaseSpec spec;
  for (const doc::Field& field : root.fields()) {
    std::string* text_field = field.key == "description" ? &spec.description
                              : field.key == "source"    ? &spec.source
                              : field.key == "target"    ? &spec.target
                              : field.key == "notes"     ? &spec.notes
                              : field.key == "oracle"    ? &spec.oracle
                                                         : nullptr;
    if (text_field != nullptr) {
      if (!field.value.is_string()) return NodeError(field.value, field.key, "must be a string");
      *text_field = field.value.string_value();
    } else if (field.key == "command") {
      Status status = ParseCommand(field.value, &spec.command);
      if (!status.ok()) return status.take_error();
    } else {
      return AsInputError(MakeError(field.key_location, field.key,
                                    "unknown case field (known: description, source, target, "
                                    "notes, oracle, command)"));
    }
  }
  for (auto [name, value] : {std::pair<const char*, const std::string*>{"description",
                                                                        &spec.description},
                             {"source", &spec.source},
                             {"target", &spec.target}}) {
    if (value->find_first_not_of(" \t\n") == std::string::npos) {
      return NodeError(root, name, "is required");
    }
  }
  return spec;
}

Result<Case> LoadCase(const fs::path& dir) {
  Case c;
  c.dir = dir;
  c.name = CaseName(dir);
  const fs::path case_file = dir / kCaseFile;
  auto text = ReadFile(case_file.string());
  if (!text.ok()) return AsInputError(text.take_error());
  auto spec = ParseCaseSpec(*text, case_file.string());
  if (!spec.ok()) return spec.take_error();
  c.spec = std::move(spec).value();
  Status status = ReadInputs(&c);
  if (!status.ok()) return AsInputError(status.take_error());
  status = ReadExpectation(&c);
  if (!status.ok()) return AsInputError(status.take_error());
  return c;
}

Result<std::vector<fs::path>> FindCases(const std::vector<fs::path>& roots) {
  std::vector<fs::path> cases;
  for (const fs::path& root : roots) {
    std::error_code error;
    if (!fs::is_directory(root, error)) return CaseError(root, "not a folder");
    if (fs::exists(root / kCaseFile, error)) {
      cases.push_back(root);  // a case itself
      continue;
    }
    std::vector<fs::path> found;
    fs::recursive_directory_iterator it(root, error);
    for (fs::recursive_directory_iterator end; !error && it != end; it.increment(error)) {
      if (!it->is_directory(error)) continue;
      if (fs::exists(it->path() / kCaseFile, error)) {
        found.push_back(it->path());
        it.disable_recursion_pending();  // a case's own folders hold no cases
      }
    }
    if (error) return CaseError(root, "cannot list: " + error.message());
    if (found.empty()) return CaseError(root, "holds no case (no folder with case.yaml)");
    std::sort(found.begin(), found.end());
    cases.insert(cases.end(), found.begin(), found.end());
  }
  // A case named twice (by itself and by a folder above it) runs once.
  std::vector<fs::path> unique;
  std::vector<fs::path> seen;
  for (const fs::path& c : cases) {
    std::error_code error;
    fs::path canonical = fs::weakly_canonical(c, error);
    if (error) canonical = c.lexically_normal();
    if (std::find(seen.begin(), seen.end(), canonical) != seen.end()) continue;
    seen.push_back(canonical);
    unique.push_back(c);
  }
  return unique;
}

}  // namespace tjr::conformance
