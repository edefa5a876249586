package dev.cairn.demo.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The comments of the deployment files (the manifests, the kustomizations, the Dockerfiles, docker-compose.yml) send
 * the reader to a section of the docs as {@code docs/<page>.md, "<heading>"} or {@code docs/<page>.md ("<heading>")};
 * each such page must exist and have that heading, so that a renamed section does not leave them pointing nowhere.
 */
class DeploymentReferencesTest {

    private static final Pattern REFERENCE = Pattern.compile("(docs/[a-z-]+\\.md)(?:, | \\()\"([^\"]+)\"");
    private static final Pattern CONTINUED_COMMENT = Pattern.compile("\\s*\\n\\s*#\\s*");

    @Test
    void shouldNameOnlyHeadingsTheDocsHaveWhenACommentPointsToASection() throws IOException {
        List<String> references = new ArrayList<>();
        List<String> broken = new ArrayList<>();
        for (Path file : files()) {
            Matcher reference = REFERENCE.matcher(CONTINUED_COMMENT.matcher(Files.readString(file)).replaceAll(" "));
            while (reference.find()) {
                Path page = KustomizeTree.ROOT.resolve(reference.group(1));
                String heading = reference.group(2);
                references.add(reference.group());
                if (!Files.isRegularFile(page) || Files.readAllLines(page).stream()
                        .noneMatch(line -> line.matches("#+ " + Pattern.quote(heading)))) {
                    broken.add(KustomizeTree.ROOT.relativize(file) + ": " + reference.group());
                }
            }
        }

        assertThat(references).as("the references found").hasSizeGreaterThan(5);
        assertThat(broken).as("references to a page or heading that does not exist").isEmpty();
    }

    private static List<Path> files() throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> deploy = Files.walk(KustomizeTree.DEPLOY)) {
            deploy.filter(f -> f.toString().endsWith(".yaml")).forEach(files::add);
        }
        Dockerfile.MODULES.forEach(module -> files.add(KustomizeTree.ROOT.resolve(module).resolve("Dockerfile")));
        files.add(KustomizeTree.ROOT.resolve("docker-compose.yml"));
        return files;
    }
}
