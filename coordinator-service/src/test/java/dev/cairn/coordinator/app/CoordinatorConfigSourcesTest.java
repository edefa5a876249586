package dev.cairn.coordinator.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.auth.SigningKey;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Where the coordinator's settings come from (flags, environment, --config file), and wrong ones from each. */
class CoordinatorConfigSourcesTest {

    private static final String UNSIGNED = "--allow-unsigned-sidecar-records";
    private static final String UNSIGNED_REQUESTS = "--allow-unsigned-requests";

    @TempDir
    Path dir;

    @Test
    void shouldPreferFlagsToEnvironmentToFileToDefaultsWhenAKeyIsGivenSeveralTimes() throws Exception {
        Path file = Files.writeString(dir.resolve("coordinator.properties"),
                "partitions=3\nreplication.factor=2\napplication.id=from-file\n");
        Map<String, String> env = Map.of("CAIRN_PARTITIONS", "4", "CAIRN_REPLICATION_FACTOR", "3");

        CoordinatorConfig config = config(env, "--config", file.toString(), "--partitions", "5", UNSIGNED,
                UNSIGNED_REQUESTS);

        assertThat(config.partitions()).isEqualTo(5);
        assertThat(config.replicationFactor()).isEqualTo((short) 3);
        assertThat(config.applicationId()).isEqualTo("from-file");
        assertThat(config.bootstrapServers()).isEqualTo("localhost:9092");
    }

    @Test
    void shouldReadBooleanKeysWhenTheyComeFromTheEnvironmentOrAFile() throws Exception {
        Path file = Files.writeString(dir.resolve("c.properties"),
                "allow.unsigned.sidecar.records=true\nallow.unsigned.requests=true\n");

        assertThat(config(Map.of("CAIRN_ALLOW_UNSIGNED_SIDECAR_RECORDS", "true", "CAIRN_ALLOW_UNSIGNED_REQUESTS",
                "true"))
                .sidecarMasterKey()).isNull();
        assertThat(config(Map.of(), "--config", file.toString()).sidecarMasterKey()).isNull();
        assertThat(run(Map.of(), "--allow-unsigned-sidecar-records=false", "--rehearse").err())
                .contains("sidecar.master.key.file is missing");
    }

    @Test
    void shouldNameTheEnvironmentVariableWhenItsValueIsNotANumber() {
        CoordinatorMainTest.Result result = run(Map.of("CAIRN_SESSION_TIMEOUT_MS", "six seconds"), UNSIGNED,
                UNSIGNED_REQUESTS);

        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err())
                .contains("Invalid value six seconds for configuration session.timeout.ms: Not a number "
                        + "of type LONG (environment variable CAIRN_SESSION_TIMEOUT_MS)");
    }

    @Test
    void shouldNameTheFileWhenAValueInItIsOutOfRange() throws Exception {
        Path file = Files.writeString(dir.resolve("c.properties"), "http.port=70000\n");

        CoordinatorMainTest.Result result = run(Map.of(), "--config", file.toString(), UNSIGNED, UNSIGNED_REQUESTS);

        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("Invalid value 70000 for configuration http.port: Value must be no more than "
                + "65535 (file " + file + ")");
    }

    @Test
    void shouldNameTheFlagWhenABooleanIsNeitherTrueNorFalse() {
        CoordinatorMainTest.Result result = run(Map.of(), "--allow-unsigned-sidecar-records=yes");

        assertThat(result.err()).contains("for configuration allow.unsigned.sidecar.records: Expected value to be "
                + "either true or false (flag --allow-unsigned-sidecar-records)");
    }

    @Test
    void shouldIgnoreAnUnknownKeyWithAWarningWhenTheFileHasOneAsKafkaDoes() throws Exception {
        Path file = Files.writeString(dir.resolve("c.properties"), "partitons=12\n");
        assertThat(config(Map.of(), "--config", file.toString(), UNSIGNED, UNSIGNED_REQUESTS).partitions())
                .isEqualTo(6);
    }

    @Test
    void shouldNameTheConfigFileWhenItCannotBeRead() {
        CoordinatorMainTest.Result result = run(Map.of(), "--config", dir.resolve("nope.properties").toString(),
                UNSIGNED, UNSIGNED_REQUESTS);

        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("--config: cannot read " + dir.resolve("nope.properties"));
    }

    @Test
    void shouldRefuseAKafkaConfigWhenItOverridesExactlyOnce() throws Exception {
        Path kafka = Files.writeString(dir.resolve("kafka.properties"), "processing.guarantee=at_least_once\n");

        CoordinatorMainTest.Result result = run(Map.of(), "--kafka-config", kafka.toString(), UNSIGNED,
                UNSIGNED_REQUESTS);

        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("kafka.config (flag --kafka-config): " + kafka
                + " sets processing.guarantee=at_least_once, but the coordinator always processes exactly_once_v2");
    }

    @Test
    void shouldRefuseAKafkaConfigWhenItOverridesTheApplicationId() throws Exception {
        Path kafka = Files.writeString(dir.resolve("kafka.properties"), "application.id=other\n");

        CoordinatorMainTest.Result result = run(Map.of("CAIRN_KAFKA_CONFIG", kafka.toString()), UNSIGNED,
                UNSIGNED_REQUESTS);

        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("kafka.config (environment variable CAIRN_KAFKA_CONFIG): " + kafka
                + " sets application.id, which the coordinator takes from its own application.id key");
    }

    @Test
    void shouldListEveryKeyWithItsEnvironmentVariableWhenAskedForHelp() {
        StringWriter out = new StringWriter();
        CommandLine commandLine = CoordinatorMain.commandLine(new CoordinatorMain(Map.of()));
        commandLine.setOut(new PrintWriter(out, true));

        assertThat(commandLine.execute("--help")).isZero();
        assertThat(out.toString()).contains("--http-port", "CAIRN_HTTP_PORT", "default 8081", "--config",
                "--bootstrap-servers", "CAIRN_BOOTSTRAP_SERVERS", "localhost:9092");
    }

    @Test
    void shouldLoadTheDocumentedSampleWhenItIsCopiedAsWritten() throws Exception {
        Matcher block = Pattern.compile("```properties\n(bootstrap\\.servers=kafka-1[^`]*)```")
                .matcher(Files.readString(Path.of("..", "docs", "operations.md")));
        assertThat(block.find()).as("the coordinator --config sample of docs/operations.md").isTrue();
        Path key = Files.writeString(dir.resolve("master.key"), SigningKey.generate().toBase64());
        Path kafka = Files.writeString(dir.resolve("kafka.properties"), "security.protocol=SSL\n");
        Path file = Files.writeString(dir.resolve("coordinator.properties"), block.group(1)
                .replace("/etc/cairn/master.key", key.toString()).replace("/etc/cairn/kafka.properties",
                        kafka.toString()));

        CoordinatorConfig config = config(Map.of(), "--config", file.toString());

        assertThat(config.bootstrapServers()).isEqualTo("kafka-1:9092,kafka-2:9092");
        assertThat(config.queryServer().bindAddress()).isEqualTo("0.0.0.0");
        assertThat(config.queryServer().advertisedHost()).isEqualTo("coordinator-1.cairn");
        assertThat(config.sidecarMasterKey()).isNotNull();
        assertThat(config.kafkaProperties()).containsEntry("security.protocol", "SSL");
    }

    private static CoordinatorConfig config(Map<String, String> env, String... args) {
        return CoordinatorMainTest.parseWith(env, args).config();
    }

    private static CoordinatorMainTest.Result run(Map<String, String> environment, String... args) {
        return CoordinatorMainTest.runWith(environment, args);
    }
}
