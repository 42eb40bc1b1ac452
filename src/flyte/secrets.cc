#include "flyte/secrets.h"

#include <array>
#include <cstdio>
#include <string_view>
#include <utility>

#include "flyte/task_fields.h"

namespace tjr::flyte {
namespace {

constexpr std::array<std::string_view, 3> kMountTypes = {"ANY", "ENV_VAR", "FILE"};

// golang/protobuf v1.5.4 textWriter.writeQuotedString.
void AppendQuoted(std::string_view text, std::string* out) {
  out->push_back('"');
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      default:
        if (c >= 0x20 && c < 0x7f) {
          out->push_back(ch);
        } else {
          char octal[5];
          std::snprintf(octal, sizeof octal, "\\%03o", static_cast<unsigned>(c));
          out->append(octal);
        }
    }
  }
  out->push_back('"');
}

std::string TextFormat(const Secret& s) {
  std::string out;
  auto field = [&out](std::string_view name, const std::string& value) {
    if (value.empty()) return;
    out.append(name).append(": ");
    AppendQuoted(value, &out);
    out.push_back('\n');
  };
  field("group", s.group);
  field("group_version", s.group_version);
  field("key", s.key);
  if (s.mount_requirement != 0) {
    out.append("mount_requirement: ");
    const bool named = s.mount_requirement > 0 && s.mount_requirement < static_cast<std::int64_t>(kMountTypes.size());
    out.append(named ? std::string(kMountTypes[static_cast<std::size_t>(s.mount_requirement)])
                     : std::to_string(s.mount_requirement));
    out.push_back('\n');
  }
  field("env_var", s.env_var);
  return out;
}

// encoding/base32 with flyteplugins' alphabet (encoding/encoder.go:11-13),
// no padding.
std::string Base32(std::string_view bytes) {
  static constexpr std::string_view kAlphabet = "abcdefghijklmnopqrstuvwxyz123456";
  std::string out;
  std::uint32_t buffer = 0;
  int bits = 0;
  for (const char ch : bytes) {
    buffer = (buffer << 8) | static_cast<unsigned char>(ch);
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out.push_back(kAlphabet[(buffer >> bits) & 31]);
    }
  }
  if (bits > 0) out.push_back(kAlphabet[(buffer << (5 - bits)) & 31]);
  return out;
}

Result<std::int64_t> MountRequirement(const doc::Node& value, const std::string& path) {
  if (value.is_int()) return value.int_value();
  if (value.is_string()) {
    for (std::size_t i = 0; i < kMountTypes.size(); ++i) {
      if (value.string_value() == kMountTypes[i]) return static_cast<std::int64_t>(i);
    }
  }
  return Error(value, path, "must be ANY, ENV_VAR or FILE (core.Secret.MountType)");
}

}  // namespace

Result<std::vector<Secret>> ParseSecrets(const doc::Node& task_template) {
  std::vector<Secret> out;
  const doc::Node* context = Get(task_template, "securityContext", "security_context");
  if (context == nullptr) return out;
  if (!context->is_mapping()) return Error(*context, "securityContext", "must be a mapping (core.SecurityContext)");
  const doc::Node* secrets = Get(*context, "secrets");
  if (secrets == nullptr) return out;
  if (!secrets->is_sequence()) return Error(*secrets, "securityContext.secrets", "must be a list of core.Secret");
  for (std::size_t i = 0; i < secrets->items().size(); ++i) {
    const doc::Node& item = secrets->items()[i];
    const std::string path = "securityContext.secrets[" + std::to_string(i) + "]";
    if (!item.is_mapping()) return Error(item, path, "must be a mapping (core.Secret)");
    Secret secret;
    secret.at = item;
    for (auto [camel, snake, target] : {std::tuple{"group", "", &secret.group},
                                        std::tuple{"groupVersion", "group_version", &secret.group_version},
                                        std::tuple{"key", "", &secret.key},
                                        std::tuple{"envVar", "env_var", &secret.env_var}}) {
      Result<std::string> v = String(item, camel, snake, path + "." + camel);
      if (!v.ok()) return v.take_error();
      *target = std::move(*v);
    }
    if (const doc::Node* mount = Get(item, "mountRequirement", "mount_requirement")) {
      Result<std::int64_t> m = MountRequirement(*mount, path + ".mountRequirement");
      if (!m.ok()) return m.take_error();
      secret.mount_requirement = *m;
    }
    out.push_back(std::move(secret));
  }
  return out;
}

std::string MarshalSecret(const Secret& secret) { return Base32(TextFormat(secret)); }

Result<StringMap> SecretAnnotations(const std::vector<Secret>& secrets) {
  constexpr std::size_t kTotalAnnotationSizeLimit = 256 * (1 << 10);
  StringMap out;
  for (std::size_t i = 0; i < secrets.size(); ++i) {
    const Secret& s = secrets[i];
    const std::string path = "securityContext.secrets[" + std::to_string(i) + "]";
    if (s.mount_requirement < 0 || s.mount_requirement >= static_cast<std::int64_t>(kMountTypes.size())) {
      return Error(s.at, path + ".mountRequirement",
                   "invalid mount requirement [" + std::to_string(s.mount_requirement) + "]");
    }
    std::string encoded = MarshalSecret(s);
    if (encoded.size() > kTotalAnnotationSizeLimit) {
      return Error(s.at, path, "secret descriptor cannot exceed [" + std::to_string(kTotalAnnotationSizeLimit) + "]");
    }
    out["flyte.secrets/s" + std::to_string(i)] = std::move(encoded);
  }
  return out;
}

Result<TaskExecutionMetadata> WrapTaskExecutionMetadata(const Task& task, bool identity_label) {
  TaskExecutionMetadata out{task.execution.labels, task.execution.annotations};
  StringMap inject_labels;
  if (!task.secrets.empty()) {
    Result<StringMap> annotations = SecretAnnotations(task.secrets);
    if (!annotations.ok()) return annotations.take_error();
    for (auto& [key, value] : *annotations) out.annotations[key] = std::move(value);
    inject_labels["inject-flyte-secrets"] = "true";
  }
  // The raw identity decides, so one that sanitizes to "" still adds the
  // label, empty.
  const std::string& identity = task.execution.execution_identity;
  if (identity_label && !identity.empty()) inject_labels["execution-identity"] = SanitizeLabelValue(identity);
  for (auto& [key, value] : inject_labels) out.labels[key] = std::move(value);
  return out;
}

std::string SanitizeLabelValue(std::string_view value) {
  std::string out;
  bool in_run = false;
  for (std::size_t i = 0; i < value.size(); ++i) {
    char c = value[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    // The two runes Go's strings.ToLower maps into ASCII: U+0130 (İ) to
    // "i" and U+212A (Kelvin sign) to "k".
    if (value.substr(i, 2) == "\xC4\xB0") {
      c = 'i';
      i += 1;
    } else if (value.substr(i, 3) == "\xE2\x84\xAA") {
      c = 'k';
      i += 2;
    }
    const bool valid = c == '-' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (valid) {
      out.push_back(c);
      in_run = false;
    } else if (!in_run) {
      out.push_back('-');
      in_run = true;
    }
  }
  if (out.size() > 63) out.resize(63);
  const std::size_t first = out.find_first_not_of('-');
  if (first == std::string::npos) return "";
  return out.substr(first, out.find_last_not_of('-') - first + 1);
}

}  // namespace tjr::flyte
