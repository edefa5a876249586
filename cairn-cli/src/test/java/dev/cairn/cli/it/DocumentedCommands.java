package dev.cairn.cli.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.cli.it.ReadmeCommands.Command;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The shell commands of the documentation, {@code README.md} and every {@code docs/**}{@code /*.md} page, and which
 * test runs each. In: the repository; out: the commands, looked up by how they start.
 *
 * <p>{@link #RUN_HERE} gives every command to the test of the longest prefix it starts with, so a prefix like
 * {@code bin/cairn register} can leave the commands of one job to another test ({@code bin/cairn register --job
 * tour}). A command that appears on several pages is one command: it is looked up, run and checked once, by its
 * text, and covered wherever it appears.
 */
final class DocumentedCommands {

    /** The repository's root (the tests run in a module's directory). */
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private static final String COMMANDS_IT = "ReadmeCommandsIT.";
    private static final String TOUR_IT = "ReadmeTourIT.";
    private static final String CLI = COMMANDS_IT + "shouldSendEachRequestAndAuditItWhenTheCliCommandsRunAsWritten";
    private static final String REST = COMMANDS_IT
            + "shouldAnswerEveryRestCallWhenDemoJobHasCompletedCheckpointSeven";
    private static final String JAR = COMMANDS_IT
            + "shouldStartTheCoordinatorJarWithAGeneratedKeyWhenRunInAnEmptyDirectory";
    private static final String FILES = COMMANDS_IT
            + "shouldWriteAKeystoreAndAClassDataArchiveWhenRunInAnEmptyDirectory";
    private static final String TOUR = TOUR_IT + "shouldCheckpointStopAndAuditTheTourJobWhenTheTourRunsAsWritten";

    /** Documented commands run by the ITs of this package: a prefix, and the test that runs every command it owns. */
    static final Map<String, String> RUN_HERE = table(
            "bin/cairn register", CLI,
            "bin/cairn trigger", CLI,
            "bin/cairn status", CLI,
            "bin/cairn stop", CLI,
            "bin/cairn savepoint", CLI,
            "bin/cairn list", CLI,
            "bin/cairn checkpoints", CLI,
            "bin/cairn request", CLI,
            "bin/cairn audit", CLI,
            "curl", REST,
            "bin/cairn keys", JAR,
            "java -jar coordinator-service/", JAR,
            "keytool", FILES,
            "java -XX:", FILES,
            "bin/cairn register --job tour", TOUR,
            "bin/cairn keys job --job tour", TOUR,
            "bin/cairn keys requests", TOUR,
            "java -jar sample-worker/", TOUR,
            "java -jar task-sidecar/target/cairn-task-sidecar.jar --bootstrap-servers", TOUR,
            "bin/cairn trigger --job tour", TOUR,
            "curl localhost:8081/jobs/tour/", TOUR,
            "bin/cairn stop --job tour", TOUR,
            "bin/cairn audit timeline --job tour", TOUR,
            "bin/cairn audit verify --rest-url http://localhost:8081", TOUR);

    /** Documented commands that run elsewhere, and the test that runs them. */
    static final Map<String, String> ELSEWHERE = table(
            "java -jar task-sidecar/target/cairn-task-sidecar.jar --config sidecar.properties",
            "SidecarConfigTest.shouldLoadTheDocumentedSampleWhenItIsCopiedAsWritten (task-sidecar): the sample "
                    + "sidecar.properties, copied as written, loads; the same sidecar with flags runs in " + TOUR,
            "mvn -B -pl coordinator-service -am verify -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false "
                    + "-Dit.test=FaultInputIT -Dfailsafe.failIfNoSpecifiedTests=false -Dcairn.fuzz.records=10000",
            "FaultInputIT (coordinator-service), which mvn -B verify in .ci/run runs with 1,500 records; this "
                    + "command only raises the count",
            "python3 docs/examples/http_worker.py --port 8090 --state-dir /tmp/cairn-python-worker",
            "PythonHttpWorkerIT (task-sidecar), which runs the script with python3 on a free port and a directory "
                    + "of its own, behind a real sidecar; mvn -B verify in .ci/run requires it",
            "mvn -B -o -q -pl cairn-demo -am test -Dtest=ConfigurationReferenceTest "
                    + "-Dsurefire.failIfNoSpecifiedTests=false -Dcairn.write-config-reference=true",
            "ConfigurationReferenceTest (cairn-demo), which mvn -B verify in .ci/run runs: it fails when "
                    + "docs/configuration.md differs from what this command writes",
            "docker compose up --build",
            "not run: the build machines have no Docker engine; DockerComposeConsistencyTest (cairn-demo) checks "
                    + "docker-compose.yml against the Dockerfiles, the keys the programs read and their ports",
            "docker compose run --rm cli register --job demo-job --task source:1 --task sink:1 --interval-ms 2000 "
                    + "--timeout-ms 10000 --storage file:///var/lib/cairn-worker",
            "not run: no Docker engine; the cli service's image runs the CLI jar whose register command "
                    + ReadmeCommandsIT.class.getSimpleName() + " runs as bin/cairn register",
            "docker run -d --name kafka -p 9092:9092 apache/kafka:4.4.0",
            "not run: no Docker engine; ReadmeTourIT runs the tour against the in-JVM KRaft broker instead, and "
                    + "DockerComposeConsistencyTest keeps the image's tag equal to docker-compose.yml's broker");

    private DocumentedCommands() {
    }

    /** The pages whose commands are checked: README.md, then every Markdown file below docs/, by path. */
    static List<Path> pages() {
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
            List<Path> pages = new ArrayList<>(List.of(Path.of("README.md")));
            docs.filter(p -> p.toString().endsWith(".md")).map(ROOT::relativize).sorted().forEach(pages::add);
            return pages;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every command of every page, each occurrence with its page and line. */
    static List<Command> all() {
        return pages().stream().flatMap(page -> ReadmeCommands.ofMarkdown(ROOT, page).stream()).toList();
    }

    /** The prefix of {@link #RUN_HERE} that owns {@code command}: the longest it starts with. */
    static Optional<String> owner(Command command) {
        return RUN_HERE.keySet().stream().filter(command::startsWith).max(Comparator.comparingInt(String::length));
    }

    /**
     * The documented commands that start with {@code prefix}, each text once (first occurrence), leaving out those a
     * longer prefix of {@link #RUN_HERE} gives to another test.
     */
    static List<Command> startingWith(String prefix) {
        return distinct(all().stream().filter(c -> c.startsWith(prefix))
                .filter(c -> owner(c).map(owner -> owner.length() <= prefix.length()).orElse(true)));
    }

    /** The one documented command that starts with {@code prefix} (in any number of places). */
    static Command one(String prefix) {
        List<Command> found = startingWith(prefix);
        assertThat(found).as("documented commands starting with '%s'", prefix).hasSize(1);
        return found.get(0);
    }

    /** The documented commands the given prefixes of {@link #RUN_HERE} own, each text once. */
    static List<Command> owned(String... prefixes) {
        List<String> wanted = List.of(prefixes);
        return distinct(all().stream().filter(c -> !ELSEWHERE.containsKey(c.text()))
                .filter(c -> owner(c).filter(wanted::contains).isPresent()));
    }

    /** Checks that a test ran exactly the commands its prefixes own, each once. */
    static void assertRanEvery(List<Command> ran, String... prefixes) {
        assertThat(ran.stream().map(Command::text).toList()).as("the documented commands this test runs")
                .containsExactlyInAnyOrderElementsOf(owned(prefixes).stream().map(Command::text).toList());
    }

    private static List<Command> distinct(Stream<Command> commands) {
        Map<String, Command> first = new LinkedHashMap<>();
        commands.forEach(c -> first.putIfAbsent(c.text(), c));
        return List.copyOf(first.values());
    }

    private static Map<String, String> table(String... keysAndValues) {
        Map<String, String> table = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            table.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return table;
    }
}
