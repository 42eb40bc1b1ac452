#include "integrate/argo_params.h"

#include <gtest/gtest.h>

namespace tjr::integrate {
namespace {

TEST(ArgoSettings, DefaultsWhenArgoSendsNothing) {
  auto settings = ReadArgoSettings({{"ARGOCD_APP_NAME", "ml"}, {"ARGOCD_APP_NAMESPACE", "team"}});
  ASSERT_TRUE(settings.ok());
  EXPECT_EQ(settings->mode, ArgoMode::kValidate);
  EXPECT_FALSE(settings->allow_empty);
  EXPECT_EQ(settings->app_name, "ml");
  EXPECT_EQ(settings->app_namespace, "team");
}

// What Argo CD sends for an Application without parameters: json.Marshal of
// a nil ApplicationSourcePluginParameters is `null`, of an empty one `[]`
// (argo-cd pkg/apis/application/v1alpha1/types.go, Environ). The plugin env
// then decides.
TEST(ArgoSettings, NoParametersIsNullOrAnEmptyList) {
  for (const char* none : {"null", "[]"}) {
    auto settings = ReadArgoSettings({{"ARGOCD_APP_PARAMETERS", none},
                                      {"ARGOCD_ENV_TJRENDER_MODE", "render"},
                                      {"ARGOCD_ENV_TJRENDER_RUNTIME_PATHS", "rt,shared/rt"}});
    ASSERT_TRUE(settings.ok()) << none << ": " << settings.error().ToString();
    EXPECT_EQ(settings->mode, ArgoMode::kRender) << none;
    EXPECT_EQ(settings->runtime_paths, (std::vector<std::string>{"rt", "shared/rt"})) << none;
  }
  EXPECT_FALSE(ReadArgoSettings({{"ARGOCD_APP_PARAMETERS", "{}"}}).ok()) << "an object is no parameter list";
}

TEST(ArgoSettings, ParametersJsonBeatsPluginEnv) {
  auto settings = ReadArgoSettings(
      {{"ARGOCD_ENV_TJRENDER_MODE", "validate"},
       {"ARGOCD_ENV_TJRENDER_TARGET", "trainer-v2.1"},
       {"ARGOCD_APP_PARAMETERS",
        R"([{"name":"mode","string":"render"},{"name":"runtime-paths","array":["rt","shared/rt"]}])"},
       // Argo sends both forms; the JSON list is read.
       {"PARAM_MODE", "render"}});
  ASSERT_TRUE(settings.ok()) << settings.error().ToString();
  EXPECT_EQ(settings->mode, ArgoMode::kRender);
  EXPECT_EQ(settings->target, "trainer-v2.1");
  EXPECT_EQ(settings->runtime_paths, (std::vector<std::string>{"rt", "shared/rt"}));
}

TEST(ArgoSettings, ParamVariablesWithoutTheJson) {
  std::map<std::string, std::string> env = {{"PARAM_ALLOW_EMPTY", "true"}};
  for (int i = 0; i < 12; ++i) env["PARAM_RUNTIME_PATHS_" + std::to_string(i)] = "p" + std::to_string(i);
  auto settings = ReadArgoSettings(env);
  ASSERT_TRUE(settings.ok()) << settings.error().ToString();
  EXPECT_TRUE(settings->allow_empty);
  ASSERT_EQ(settings->runtime_paths.size(), 12u);
  EXPECT_EQ(settings->runtime_paths[2], "p2");
  EXPECT_EQ(settings->runtime_paths[10], "p10");
}

TEST(ArgoSettings, TyposAndBadValuesAreErrors) {
  auto unknown = ReadArgoSettings({{"ARGOCD_APP_PARAMETERS", R"([{"name":"mdoe","string":"x"}])"}});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("unknown parameter 'mdoe'"), std::string::npos);
  EXPECT_FALSE(ReadArgoSettings({{"PARAM_MDOE", "render"}}).ok());
  auto mode = ReadArgoSettings({{"ARGOCD_ENV_TJRENDER_MODE", "apply"}});
  ASSERT_FALSE(mode.ok());
  EXPECT_EQ(mode.error().category, Category::kInput);
  EXPECT_FALSE(ReadArgoSettings({{"PARAM_ALLOW_EMPTY", "yes"}}).ok());
  EXPECT_FALSE(ReadArgoSettings({{"ARGOCD_APP_PARAMETERS", "{"}}).ok());
}

TEST(ArgoSettings, ClusterApisDecideWhatCanBeApplied) {
  auto trainer = ReadArgoSettings({{"KUBE_API_VERSIONS", "v1,apps/v1,trainer.kubeflow.org/v1alpha1"}});
  ASSERT_TRUE(trainer.ok());
  EXPECT_EQ(MissingClusterApi(*trainer), "");
  trainer->mode = ArgoMode::kRender;
  EXPECT_NE(MissingClusterApi(*trainer).find("does not serve jobset.x-k8s.io/v1alpha2"), std::string::npos);
  auto unknown = ReadArgoSettings({});
  ASSERT_TRUE(unknown.ok());
  EXPECT_EQ(MissingClusterApi(*unknown), "") << "no KUBE_API_VERSIONS, no check";
}

}  // namespace
}  // namespace tjr::integrate
