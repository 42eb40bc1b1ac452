// apimachinery v0.36 validation.IsDomainPrefixedPath (validation.go:96-118).
#include "validate/domain_path.h"

#include <gtest/gtest.h>

namespace tjr::validate {
namespace {

std::vector<std::string> Errors(std::string_view value) {
  std::vector<std::string> out;
  for (const FieldError& error : DomainPrefixedPathErrors("f", value)) out.push_back(error.Error());
  return out;
}

TEST(DomainPrefixedPath, Shapes) {
  EXPECT_EQ(Errors(""), std::vector<std::string>{"f: Required value"});
  for (std::string_view bad : {"acme.io", "/foo", "acme.io/"}) {
    EXPECT_EQ(Errors(bad), std::vector<std::string>{"f: Invalid value: \"" + std::string(bad) +
                                                    "\": must be a domain-prefixed path (such as \"acme.io/foo\")"});
  }
  EXPECT_TRUE(Errors("kueue.x-k8s.io/manager").empty());
  // Only the first "/" splits: the rest belongs to the path.
  EXPECT_TRUE(Errors("acme.io/a/b~c%20").empty());
}

TEST(DomainPrefixedPath, HostErrorsThenPathError) {
  const std::string host(254, 'a');
  std::vector<std::string> found = Errors(host + "/x y");
  ASSERT_EQ(found.size(), 2u);  // long host: a valid label pattern, only the length fails
  EXPECT_EQ(found[0], "f: Invalid value: \"" + host + "\": must be no more than 253 characters");
  EXPECT_EQ(found[1],
            "f: Invalid value: \"x y\": Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')");
  EXPECT_EQ(Dns1123SubdomainErrors("-a").size(), 1u);
  EXPECT_TRUE(Dns1123SubdomainErrors("a.b-c.d").empty());
}

}  // namespace
}  // namespace tjr::validate
