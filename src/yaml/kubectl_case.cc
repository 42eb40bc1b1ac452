#include "yaml/kubectl_case.h"

#include <cctype>

#include "json/json.h"

namespace tjr::yaml::testing {

doc::Node PodTemplateWith(std::string_view json_value) {
  std::string text = R"({"apiVersion":"v1","kind":"PodTemplate","metadata":{"name":"t"},)";
  text += R"("template":{"spec":{"x":)";
  text += json_value;
  text += "}}}";
  Result<doc::Node> node = json::Read(text, "case.json");
  EXPECT_TRUE(node.ok()) << node.error().ToString();
  return node.ok() ? node.value() : doc::Node();
}

std::string KubectlOutput(const KubectlCase& c) {
  std::string out =
      "apiVersion: v1\n"
      "kind: PodTemplate\n"
      "metadata:\n"
      "  name: t\n"
      "template:\n"
      "  spec:\n"
      "    x:";
  out += c.expected_after_x;
  return out;
}

std::string CaseName(const ::testing::TestParamInfo<KubectlCase>& info) {
  std::string name;
  bool upper = true;
  for (char c : info.param.description) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      name += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
      upper = false;
    } else {
      upper = true;
    }
  }
  return name;
}

}  // namespace tjr::yaml::testing
