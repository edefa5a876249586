package dev.cairn.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.cli.CairnCli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's Docker commands cannot run on the build machines (no Docker engine). This keeps them consistent with
 * what can be checked: the broker image the tour's one-line {@code docker run} starts is the one docker-compose.yml
 * runs, and the quick start's {@code docker compose run --rm cli ...} names a service of the file and passes the CLI
 * flags it parses.
 */
class ReadmeDockerCommandsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern DOCKER_RUN_KAFKA = Pattern.compile("docker run -d --name kafka -p 9092:9092 (\\S+)");
    private static final Pattern COMPOSE_KAFKA_IMAGE = Pattern.compile("(?m)^  kafka:\\s*\\n    image: (\\S+)");
    private static final Pattern COMPOSE_RUN_CLI = Pattern.compile(
            "docker compose run --rm cli ((?:[^\\n\\\\]|\\\\\\n)+)");

    @Test
    void shouldStartTheBrokerImageOfDockerComposeWhenTheTourRunsKafkaInDocker() throws IOException {
        Matcher run = DOCKER_RUN_KAFKA.matcher(readme());
        Matcher compose = COMPOSE_KAFKA_IMAGE.matcher(Files.readString(ROOT.resolve("docker-compose.yml")));

        assertThat(run.find()).as("the tour's docker run of a broker in README.md").isTrue();
        assertThat(compose.find()).as("the kafka service's image in docker-compose.yml").isTrue();
        assertThat(run.group(1)).isEqualTo(compose.group(1));
    }

    @Test
    void shouldPassFlagsTheCliParsesWhenTheQuickStartRegistersThroughCompose() throws IOException {
        Matcher run = COMPOSE_RUN_CLI.matcher(readme());

        assertThat(run.find()).as("the quick start's docker compose run of the CLI in README.md").isTrue();
        assertThat(Files.readString(ROOT.resolve("docker-compose.yml"))).containsPattern("(?m)^  cli:\\s*$");
        String[] args = Arrays.stream(run.group(1).replace("\\\n", " ").trim().split("\\s+")).toArray(String[]::new);
        assertThat(CairnCli.commandLine().parseArgs(args).errors()).isEmpty();
        assertThat(args[0]).isEqualTo("register");
    }

    private static String readme() throws IOException {
        return Files.readString(ROOT.resolve("README.md"));
    }
}
