#include "source/unrendered_template.h"

#include <gtest/gtest.h>

#include <string>

namespace tjr::source {
namespace {

// "LINE:COL TEXT" of the first placeholder, or "none".
std::string First(std::string_view text) {
  std::optional<TemplatePlaceholder> found = FindUnrenderedTemplate(text);
  if (!found) return "none";
  return std::to_string(found->line) + ":" + std::to_string(found->column) + " " + found->text;
}

TEST(UnrenderedTemplate, FindsPlaceholdersWhereAValueOrALineShouldBe) {
  EXPECT_EQ(First("spec:\n  trainer:\n    image: ${IMAGE}\n"), "3:12 ${IMAGE}");
  EXPECT_EQ(First("spec:\n  trainer:\n    numNodes: $NODES\n"), "3:15 $NODES");
  EXPECT_EQ(First("spec:\n  trainer:\n    numNodes: \"$NODES\"  # from CI\n"), "3:16 $NODES");
  EXPECT_EQ(First("metadata:\n  name: x\n${EXTRA}\nspec: {}\n"), "3:1 ${EXTRA}");
  EXPECT_EQ(First("  - image: repo/trainer:${TAG:-latest}\n"), "1:25 ${TAG:-latest}");
  EXPECT_EQ(First("spec:\n  trainer:\n    image: {{ .Values.image }}\n"), "3:12 {{ .Values.image }}");
  EXPECT_EQ(First("{{- if .Values.enabled }}\nkind: TrainJob\n{{- end }}\n"), "1:1 {{- if .Values.enabled }}");
  EXPECT_EQ(First("  labels:\n    {{- include \"labels\" . | nindent 4 }}\n"),
            "2:5 {{- include \"labels\" . | nindent 4 }}");
  EXPECT_EQ(First("{\n  \"spec\": {\n    \"image\": \"${IMAGE}\",\n"), "3:15 ${IMAGE}");
  EXPECT_EQ(First("- $ITEM\n"), "1:3 $ITEM");
  // Columns count characters.
  EXPECT_EQ(First("a: \xc3\xb6-${X}\n"), "1:6 ${X}");
  // Terraform's templatefile: function calls and attributes, a whole line
  // or a value (GoogleCloudPlatform/ai-on-gke modules/kuberay-cluster).
  EXPECT_EQ(First("  labels:\n    a: b\n    ${indent(4, chomp(yamlencode(additional_labels)))}\n"),
            "3:5 ${indent(4, chomp(yamlencode(additional_labels)))}");
  EXPECT_EQ(First("spec:\n  image: ${var.image}\n"), "2:10 ${var.image}");
  EXPECT_EQ(First("a: ${lookup(m, \"k}\")}\n"), "1:4 ${lookup(m, \"k}\")}");
  // Unclosed or unbalanced: no placeholder.
  EXPECT_EQ(First("a: ${f(x}\nb: ${g(x))}\n"), "none");
}

// The kinds a template that does not parse shows as text.
TEST(UnrenderedTemplate, FindsTheKindsATemplateWritesOut) {
  TemplateKinds kinds = FindTemplateKinds(
      "{{$n := .N}}\napiVersion: apps/v1\nkind: StatefulSet\n---\n- kind: \"PriorityClass\"  # c\n");
  EXPECT_EQ(kinds.written, (std::vector<std::string>{"StatefulSet", "PriorityClass"}));
  EXPECT_FALSE(kinds.templated);
  EXPECT_TRUE(FindTemplateKinds("kind: {{ .Values.kind }}\n").templated);
  EXPECT_TRUE(FindTemplateKinds("kind: ${KIND}\n").templated);
  EXPECT_TRUE(FindTemplateKinds("metadata:\n  name: x\n").written.empty());
}

TEST(UnrenderedTemplate, LeavesShellLinesScriptsAndKubernetesExpansionAlone) {
  // command and args are the shell's and the program's, inline or below.
  EXPECT_EQ(First("containers:\n- name: node\n  command: [sh, -c, \"echo ${HOME} $USER\"]\n"), "none");
  EXPECT_EQ(First("containers:\n- name: node\n  command:\n  - sh\n  - -c\n  - torchrun $SCRIPT\n"
                  "  args:\n    - ${EPOCHS}\n  env:\n  - name: A\n    value: $(POD_NAME)\n"),
            "none");
  // ...until a key at their level or above.
  EXPECT_EQ(First("- command:\n  - $A\n  image: ${IMAGE}\n"), "3:10 ${IMAGE}");
  // Flyte fills in its own {{.input}} in args.
  EXPECT_EQ(First("container:\n  args: [pyflyte-execute, --inputs, \"{{.input}}\",\n"
                  "         --output-prefix, \"{{.outputPrefix}}\"]\n  image: x\n"),
            "none");
  // Block scalars are text (a script, a config file) however deep.
  EXPECT_EQ(First("data:\n  run.sh: |\n    echo ${HOME}\n    $CMD\n  other: x\n"), "none");
  EXPECT_EQ(First("- |-\n  ${A}\n- >\n  {{ b }}\n"), "none");
  EXPECT_EQ(First("data:\n  run.sh: |\n    echo\n  tag: ${TAG}\n"), "4:8 ${TAG}");
  // Kubernetes' $(VAR), GitHub's ${{ }}, Flux's $${VAR} escape, a lone '$'
  // and comments are no placeholders.
  EXPECT_EQ(First("env:\n- name: A\n  value: $(POD_NAME)\nruns-on: ${{ matrix.os }}\n"), "none");
  EXPECT_EQ(First("a: $${VAR}\nb: costs $5\nc: a$b\nd: ${}\n# image: ${IMAGE}\ne: x # ${Y}\n"), "none");
  EXPECT_EQ(First("apiVersion: v1\nkind: ConfigMap\n"), "none");
  // A value with blanks is text whose `${var}` are its own (a script in a
  // quoted string, its lines escaped); a value of one word is not.
  EXPECT_EQ(First("data:\n  entrypoint.sh: \"viewroot=${viewbase}/view\\nexport X=$Y\"\n"), "none");
  EXPECT_EQ(First("data:\n  entrypoint.sh: \"fluxuser=$(whoami)\\nviewroot=${viewbase}/view\\n\"\n"), "none");
  EXPECT_EQ(First("spec:\n  image: \"repo/x:${TAG}\"\n"), "2:18 ${TAG}");
}

TEST(UnrenderedTemplate, AParseErrorIsTheTemplatesOnlyAtOrRightAfterAPlaceholder) {
  const std::vector<TemplatePlaceholder> all =
      FindUnrenderedTemplates("a: ${A}\nb: x\n${EXTRA}\nc:\n  - \"{{workflow.name}}\"\n");
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[1].line, 3u);
  EXPECT_EQ(all[2].text, "{{workflow.name}}");
  EXPECT_TRUE(ExplainsParseError(all, 3));
  EXPECT_TRUE(ExplainsParseError(all, 4));
  EXPECT_FALSE(ExplainsParseError(all, 2 + 5));
  EXPECT_FALSE(ExplainsParseError({}, 1));
}

TEST(UnrenderedTemplate, TheMessageNamesThePlaceholderAndTheWayOut) {
  EXPECT_EQ(UnrenderedTemplateMessage(TemplatePlaceholder{3, 12, "${IMAGE}"}),
            "an unrendered template (helm template, envsubst, your bundler): `${IMAGE}` is still a placeholder; "
            "render it first and pipe it to `tjrender check -`");
}

}  // namespace
}  // namespace tjr::source
