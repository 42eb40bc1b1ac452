// ValidateContainerResourceRequirements (validateResourceRequirements with
// validateContainerResourceName) and validateResourceClaimNames
// (pkg/apis/core/validation/validation.go; see containers.cc for the revision read), with the resource-name
// helpers of pkg/apis/core/helper/helpers.go.
//
// A Job's pod template is not defaulted with requests from limits (only
// SetDefaults_Pod does that, when the Pod is made), and upstream only
// compares the requests it finds: a GPU limit without a request is valid,
// a GPU request without a limit is not, and a GPU request must equal its
// limit ("must be equal to nvidia.com/gpu limit of 4").
#include <map>
#include <optional>
#include <set>
#include <string>

#include "admission/container_checks.h"
#include "admission/container_formats.h"
#include "doc/path.h"
#include "typed/quantity.h"

namespace tjr::admission::containers {
namespace {

using validate::BadValue;

constexpr std::string_view kRule = "resources";

bool IsHugePages(std::string_view name) { return name.starts_with("hugepages-"); }

// IsNativeResource: unprefixed, or in the kubernetes.io/ namespace.
bool IsNative(std::string_view name) {
  return name.find('/') == std::string_view::npos || name.find("kubernetes.io/") != std::string_view::npos;
}

bool IsOvercommitAllowed(std::string_view name) { return IsNative(name) && !IsHugePages(name); }

// IsExtendedResourceName.
bool IsExtended(std::string_view name) {
  if (IsNative(name) || name.starts_with("requests.")) return false;
  return formats::QualifiedName("requests." + std::string(name)).empty();
}

// IsStandardResourceName: standardResources or a quota hugepages name.
bool IsStandardResource(std::string_view name) {
  static const std::set<std::string_view> kStandard = {
      "cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory", "requests.ephemeral-storage",
      "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods", "resourcequotas", "services",
      "replicationcontrollers", "secrets", "configmaps", "persistentvolumeclaims", "storage", "requests.storage",
      "services.nodeports", "services.loadbalancers"};
  return kStandard.contains(name) || IsHugePages(name) || name.starts_with("requests.hugepages-");
}

bool IsStandardContainerResource(std::string_view name) {
  return name == "cpu" || name == "memory" || name == "ephemeral-storage" || IsHugePages(name);
}

// IsIntegerResourceName.
bool IsInteger(std::string_view name) {
  static const std::set<std::string_view> kIntegers = {"pods", "resourcequotas", "services", "replicationcontrollers",
                                                       "secrets", "configmaps", "persistentvolumeclaims",
                                                       "services.nodeports", "services.loadbalancers"};
  return kIntegers.contains(name) || IsExtended(name);
}

// validateContainerResourceName (validateResourceName first). The value is
// a core.ResourceName, whose String() ErrorBody prints unquoted.
void ValidateResourceName(const std::string& name, const Path& path, const doc::Node* at, ObjectErrors* errors) {
  bool qualified = true;
  for (std::string& message : formats::QualifiedName(name)) {
    qualified = false;
    errors->Add(kRule, Invalid(path, BadValue::Plain(name), std::move(message)), at);
  }
  const bool unprefixed = name.find('/') == std::string::npos;
  if (qualified && unprefixed && !IsStandardResource(name)) {
    errors->Add(kRule, Invalid(path, BadValue::Plain(name), "must be a standard resource type or fully qualified"), at);
  }
  if (unprefixed) {
    if (!IsStandardContainerResource(name)) {
      errors->Add(kRule, Invalid(path, BadValue::Plain(name), "must be a standard resource for containers"), at);
    }
  } else if (!IsNative(name) && !IsExtended(name)) {
    errors->Add(kRule, Invalid(path, BadValue::Plain(name), "doesn't follow extended resource name standard"), at);
  }
}

// Quantity.Value() (rounded up to an integer; with extra_ten 3,
// MilliValue()) read from the quantity's text, with whether the amount was
// whole; nothing when the text is not a number with a suffix or the value
// leaves 120 bits.
struct WholeValue {
  __int128 value = 0;
  bool whole = true;
};

std::optional<WholeValue> ValueOf(const std::string& text, int extra_ten = 0) {
  std::size_t at = 0;
  const bool negative = !text.empty() && text[0] == '-';
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) at = 1;
  __int128 mantissa = 0;
  int fraction_digits = 0;
  bool dot = false;
  bool digits = false;
  for (; at < text.size(); ++at) {
    const char c = text[at];
    if (c == '.' && !dot) {
      dot = true;
      continue;
    }
    if (c < '0' || c > '9') break;
    if (mantissa > (static_cast<__int128>(1) << 100)) return std::nullopt;
    mantissa = mantissa * 10 + (c - '0');
    digits = true;
    if (dot) ++fraction_digits;
  }
  if (!digits) return std::nullopt;
  const std::string suffix = text.substr(at);
  int ten = extra_ten - fraction_digits;  // value = mantissa * 10^ten * 2^two
  int two = 0;
  static const std::map<std::string, std::pair<int, int>, std::less<>> kSuffixes = {
      {"", {0, 0}},   {"n", {-9, 0}}, {"u", {-6, 0}},  {"m", {-3, 0}},  {"k", {3, 0}},   {"M", {6, 0}},
      {"G", {9, 0}},  {"T", {12, 0}}, {"P", {15, 0}},  {"E", {18, 0}},  {"Ki", {0, 10}}, {"Mi", {0, 20}},
      {"Gi", {0, 30}}, {"Ti", {0, 40}}, {"Pi", {0, 50}}, {"Ei", {0, 60}}};
  if (const auto found = kSuffixes.find(suffix); found != kSuffixes.end()) {
    ten += found->second.first;
    two = found->second.second;
  } else if ((suffix[0] == 'e' || suffix[0] == 'E') && suffix.size() > 1) {
    ten += std::stoi(suffix.substr(1));
  } else {
    return std::nullopt;
  }
  __int128 numerator = mantissa;
  __int128 denominator = 1;
  for (; two > 0; --two) numerator *= 2;
  for (; ten > 0; --ten) {
    if (numerator > (static_cast<__int128>(1) << 116)) return std::nullopt;
    numerator *= 10;
  }
  for (; ten < 0; ++ten) {
    if (denominator > (static_cast<__int128>(1) << 116)) return std::nullopt;
    denominator *= 10;
  }
  WholeValue out;
  out.whole = numerator % denominator == 0;
  // Rounded away from zero, as Quantity.Value does for positive amounts.
  out.value = numerator / denominator + (out.whole ? 0 : 1);
  if (negative) out.value = -(numerator / denominator);
  return out;
}

// IsHugePageResourceValueDivisible: the page size (the name's suffix) a
// positive whole number, and the amount a multiple of it.
bool HugePagesDivisible(std::string_view name, const typed::Quantity& quantity) {
  Result<typed::Quantity> page = typed::Quantity::Parse(name.substr(std::string_view("hugepages-").size()));
  if (!page.ok()) return false;
  const std::optional<WholeValue> size = ValueOf(page->String());
  const std::optional<WholeValue> amount = ValueOf(quantity.String());
  if (!size || !amount || size->value <= 0 || !size->whole) return false;
  return amount->value % size->value == 0;
}

struct Quantities {
  std::string name;
  typed::Quantity quantity;
  const doc::Node* at;
};

// Reads a ResourceList; a value that does not parse is the schema's to
// refuse (the API server fails decoding before validation).
std::vector<Quantities> ReadList(const doc::Node* list) {
  std::vector<Quantities> out;
  if (list == nullptr || !list->is_mapping()) return out;
  for (const doc::Field& field : list->fields()) {
    typed::Quantity quantity;
    if (!quantity.UnmarshalJson(field.value).ok()) continue;
    out.push_back({field.key, quantity, &field.value});
  }
  return out;
}

const Quantities* Find(const std::vector<Quantities>& list, std::string_view name) {
  for (const Quantities& entry : list) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

// MilliValue() % 1000 == 0, as ValidateResourceQuantityValue asks of
// integer resources (an unreadable text is let through).
bool MilliValueIsWhole(const std::string& text) {
  const std::optional<WholeValue> millis = ValueOf(text, 3);
  return !millis || millis->value % 1000 == 0;
}

// ValidateResourceQuantityValue of one entry.
void ValidateQuantity(const Quantities& entry, const Path& path, ObjectErrors* errors) {
  if (entry.quantity.negative()) {
    errors->Add(kRule,
                Invalid(path, BadValue::String(entry.quantity.String()), "must be greater than or equal to 0"),
                entry.at);
  }
  // Quantity has a pointer String(), which ErrorBody prints unquoted.
  if (IsInteger(entry.name) && !MilliValueIsWhole(entry.quantity.String())) {
    errors->Add(kRule, Invalid(path, BadValue::Plain(entry.quantity.String()), "must be an integer"), entry.at);
  }
}

// validateResourceQuantityHugePageValue (AllowIndivisibleHugePagesValues is
// off for an object being created).
void ValidateHugePages(const Quantities& entry, const Path& path, ObjectErrors* errors) {
  if (HugePagesDivisible(entry.name, entry.quantity)) return;
  const std::string amount = entry.quantity.String();
  errors->Add(kRule,
              Invalid(path, BadValue::String(amount), amount + " is not positive integer multiple of " + entry.name),
              entry.at);
}

}  // namespace

void ValidateContainerResources(const doc::Node* resources, const Path& path, const PodContext& pod) {
  if (resources == nullptr) return;
  ObjectErrors* errors = pod.errors;
  const Path limits_path = path.Child("limits");
  const Path requests_path = path.Child("requests");
  const std::vector<Quantities> limits = ReadList(doc::At(resources, "limits"));
  const std::vector<Quantities> requests = ReadList(doc::At(resources, "requests"));
  bool cpu_or_memory = false;
  bool hugepages = false;
  for (const Quantities& limit : limits) {
    const Path item = limits_path.Key(limit.name);
    ValidateResourceName(limit.name, item, limit.at, errors);
    ValidateQuantity(limit, item, errors);
    if (IsHugePages(limit.name)) {
      hugepages = true;
      ValidateHugePages(limit, item, errors);
    }
    if (limit.name == "cpu" || limit.name == "memory") cpu_or_memory = true;
  }
  for (const Quantities& request : requests) {
    const Path item = requests_path.Key(request.name);
    ValidateResourceName(request.name, item, request.at, errors);
    ValidateQuantity(request, item, errors);
    // Upstream reports the comparison at "requests", not at the key.
    if (const Quantities* limit = Find(limits, request.name)) {
      const int order = Compare(request.quantity, limit->quantity);
      if (order != 0 && !IsOvercommitAllowed(request.name)) {
        errors->Add(kRule,
                    Invalid(requests_path, BadValue::String(request.quantity.String()),
                            "must be equal to " + request.name + " limit of " + limit->quantity.String()),
                    request.at);
      } else if (order > 0) {
        errors->Add(kRule,
                    Invalid(requests_path, BadValue::String(request.quantity.String()),
                            "must be less than or equal to " + request.name + " limit of " + limit->quantity.String()),
                    request.at);
      }
    } else if (!IsOvercommitAllowed(request.name)) {
      errors->Add(kRule, Required(limits_path, "Limit must be set for non overcommitable resources"), request.at);
    }
    if (IsHugePages(request.name)) {
      hugepages = true;
      ValidateHugePages(request, item, errors);
    }
    if (request.name == "cpu" || request.name == "memory") cpu_or_memory = true;
  }
  if (!cpu_or_memory && hugepages) {
    errors->Add(kRule, Forbidden(path, "HugePages require cpu or memory"), resources);
  }
  // validateResourceClaimNames.
  std::set<std::string> claim_names;
  for (const doc::Node& claim : doc::Items(pod.resource_claims)) {
    const std::string name = StringField(&claim, "name");
    if (!name.empty()) claim_names.insert(name);
  }
  const Path claims_path = path.Child("claims");
  std::set<std::string> seen;
  const std::vector<doc::Node>& claims = doc::Items(doc::At(resources, "claims"));
  for (std::size_t i = 0; i < claims.size(); ++i) {
    const doc::Node& claim = claims[i];
    const std::string name = StringField(&claim, "name");
    const std::string request = StringField(&claim, "request");
    if (name.empty()) {
      errors->Add(kRule, Required(claims_path.Index(i)), &claim);
      continue;
    }
    if (seen.contains(name)) {
      errors->Add(kRule, Duplicate(claims_path.Index(i), BadValue::String(name)), &claim);
    } else {
      std::string key = name;
      if (!request.empty()) {
        for (std::string& message : formats::Dns1123Label(request)) {
          errors->Add(kRule,
                      Invalid(claims_path.Index(i).Child("request"), BadValue::String(request), std::move(message)),
                      {claim.Find("request"), &claim});
        }
        key += "/" + request;
      }
      if (seen.contains(key)) {
        errors->Add(kRule, Duplicate(claims_path.Index(i), BadValue::String(key)), &claim);
      } else if (request.empty()) {
        // A whole claim overlaps every request of it named before.
        for (const std::string& earlier : seen) {
          const std::size_t slash = earlier.find('/');
          if (slash != std::string::npos && earlier.substr(0, slash) == name) {
            errors->Add(kRule, Duplicate(claims_path.Index(i), BadValue::String(name)), &claim);
          }
        }
      }
      seen.insert(key);
    }
    if (!claim_names.contains(name)) {
      std::string detail = "must be one of the names in pod.spec.resourceClaims";
      if (claim_names.empty()) {
        detail += " which is empty";
      } else {
        std::string joined;
        for (const std::string& known : claim_names) joined += (joined.empty() ? "" : ", ") + known;
        detail += ": " + joined;
      }
      validate::FieldError error = NotFound(claims_path.Index(i), BadValue::String(name));
      error.detail = std::move(detail);
      errors->Add(kRule, std::move(error), &claim);
    }
  }
}

}  // namespace tjr::admission::containers
