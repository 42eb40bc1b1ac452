#include "cli/render_config.h"

#include <filesystem>

#include "yaml/reader.h"

namespace tjr::cli {
namespace {

Result<std::vector<std::string>> StringList(const doc::Field& field) {
  if (!field.value.is_sequence()) {
    return AsInputError(
        MakeError(field.value.location(), field.key, "must be a list of glob patterns"));
  }
  std::vector<std::string> patterns;
  for (const doc::Node& item : field.value.items()) {
    if (!item.is_string() || item.string_value().empty()) {
      return AsInputError(
          MakeError(item.location(), field.key, "must be a list of non-empty strings"));
    }
    patterns.push_back(item.string_value());
  }
  return patterns;
}

}  // namespace

std::string RepoConfigPath(const source::Tree& tree, const std::vector<std::string>& paths) {
  if (!paths.empty() && paths.front() != "-") {
    Result<source::EntryType> type = tree.Stat(paths.front());
    if (type.ok() && *type == source::EntryType::kDirectory) {
      std::string dir = paths.front();
      while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
      return dir == "." ? kRepoConfigFile : dir + "/" + kRepoConfigFile;
    }
  }
  return kRepoConfigFile;
}

Result<RepoConfig> ReadRepoConfig(const source::Tree& tree, const std::string& path) {
  if (!tree.Stat(path).ok()) return RepoConfig();
  Result<std::string> text = tree.Read(path, std::size_t{1} << 20);
  if (!text.ok()) return AsInputError(text.take_error());
  return ParseRepoConfig(*text, path);
}

Result<RepoConfig> ParseRepoConfig(const std::string& text, const std::string& name) {
  RepoConfig config;
  Result<std::vector<doc::Node>> documents = yaml::ReadStream(text, name);
  if (!documents.ok()) return AsInputError(documents.take_error());
  Location file{InternSourceName(name)};
  if (documents->empty()) return config;
  if (documents->size() != 1 || !(*documents)[0].is_mapping()) {
    return AsInputError(MakeError(file, "", "must hold one mapping (e.g. `target: trainer-v2.1`)"));
  }
  for (const doc::Field& field : (*documents)[0].fields()) {
    if (field.key == "include" || field.key == "exclude") {
      Result<std::vector<std::string>> patterns = StringList(field);
      if (!patterns.ok()) return patterns.take_error();
      (field.key == "include" ? config.filter.include : config.filter.exclude) =
          std::move(*patterns);
      continue;
    }
    if (field.key != "target") {
      return AsInputError(MakeError(field.key_location.known() ? field.key_location : file, "",
                                    "unknown setting '" + field.key +
                                        "' (known: target, include, exclude)"));
    }
    if (!field.value.is_string()) {
      return AsInputError(MakeError(field.value.location(), "target", "must be a string"));
    }
    config.target = field.value.string_value();
  }
  return config;
}

}  // namespace tjr::cli
