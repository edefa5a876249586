package dev.cairn.coordinator.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Option;

/**
 * docker-compose.yml cannot run on the build machines (no Docker engine); this keeps it consistent with
 * what can be checked: the Dockerfiles it names exist, and every CAIRN_* variable it sets is one the
 * coordinator reads.
 */
class DockerComposeConsistencyTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void shouldBuildFromDockerfilesThatExist() throws IOException {
        Matcher dockerfiles = Pattern.compile("dockerfile:\\s*(\\S+)").matcher(compose());
        int found = 0;
        while (dockerfiles.find()) {
            found++;
            Path dockerfile = ROOT.resolve(dockerfiles.group(1));
            assertThat(dockerfile).exists();
            assertThat(Files.readString(dockerfile)).contains("ENTRYPOINT");
        }
        assertThat(found).isPositive();
    }

    @Test
    void shouldSetOnlyVariablesTheCoordinatorReads() throws IOException {
        Set<String> read = Arrays.stream(CoordinatorMain.class.getDeclaredFields())
                .map(field -> field.getAnnotation(Option.class))
                .filter(option -> option != null)
                .map(Option::defaultValue)
                .flatMap(value -> Pattern.compile("\\$\\{env:(CAIRN_[A-Z_]+)").matcher(value).results())
                .map(match -> match.group(1))
                .collect(Collectors.toSet());
        Set<String> set = Pattern.compile("(CAIRN_[A-Z_]+):").matcher(compose()).results()
                .map(match -> match.group(1)).collect(Collectors.toSet());

        assertThat(set).isNotEmpty();
        assertThat(read).containsAll(set);
    }

    @Test
    void shouldRunTheJarTheBuildProduces() throws IOException {
        String dockerfile = Files.readString(ROOT.resolve("coordinator-service/Dockerfile"));
        String pom = Files.readString(ROOT.resolve("coordinator-service/pom.xml"));
        Matcher finalName = Pattern.compile("<finalName>(.+)</finalName>").matcher(pom);
        assertThat(finalName.find()).isTrue();
        assertThat(dockerfile).contains("/app/" + finalName.group(1) + ".jar");
    }

    private static String compose() throws IOException {
        return Files.readString(ROOT.resolve("docker-compose.yml"));
    }
}
