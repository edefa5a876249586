package dev.cairn.coordinator.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.query.SelfSignedKeystore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class CoordinatorMainTest {

    @TempDir
    Path dir;

    @Test
    void shouldTurnFlagsIntoTheConfiguration() throws Exception {
        Path kafkaConfig = Files.writeString(dir.resolve("kafka.properties"),
                "security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\n");
        CoordinatorMain main = parse("--bootstrap-servers", "k1:9092,k2:9092", "--application-id", "cairn-a",
                "--topic-prefix", "prod.cairn.", "--partitions", "12", "--replication-factor", "3",
                "--state-dir", dir.toString(), "--tick-interval-ms", "250", "--commit-interval-ms", "50",
                "--kafka-config", kafkaConfig.toString());

        CoordinatorConfig config = main.config();

        assertThat(config.bootstrapServers()).isEqualTo("k1:9092,k2:9092");
        assertThat(config.applicationId()).isEqualTo("cairn-a");
        assertThat(config.topics().journal()).isEqualTo("prod.cairn.journal");
        assertThat(config.partitions()).isEqualTo(12);
        assertThat(config.replicationFactor()).isEqualTo((short) 3);
        assertThat(config.tickInterval()).isEqualTo(Duration.ofMillis(250));
        assertThat(config.commitInterval()).isEqualTo(Duration.ofMillis(50));
        assertThat(config.kafkaProperties()).containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "PLAIN");
    }

    @Test
    void shouldExplainANonNumericPartitionCount() {
        Result result = run("--partitions", "many");
        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("Invalid value for option '--partitions'").contains("'many' is not an int");
    }

    @Test
    void shouldRefuseANonPositivePartitionCountBeforeConnecting() {
        Result result = run("--partitions", "0", "--bootstrap-servers", "127.0.0.1:1");
        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("partitions must be positive, was 0");
    }

    @Test
    void shouldRefuseATopicPrefixKafkaCannotName() {
        Result result = run("--topic-prefix", "cairn/");
        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("topic prefix 'cairn/' may contain only letters, digits");
    }

    @Test
    void shouldNameAKafkaConfigFileThatCannotBeRead() {
        Result result = run("--kafka-config", dir.resolve("missing.properties").toString());
        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("--kafka-config: cannot read").contains("missing.properties");
    }

    @Test
    void shouldNameAKafkaConfigFileThatIsNotAPropertiesFile() throws Exception {
        Path broken = Files.writeString(dir.resolve("broken.properties"), "sasl.jaas.config=\\u12zz\n");
        Result result = run("--kafka-config", broken.toString());
        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("broken.properties is not a properties file").contains("Malformed");
    }

    @Test
    void shouldReadTheTokensFileIntoTheRestApisAccessPolicy() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens.properties"), "ops.token=Zm9vYmFyYmF6cXV4cXV1eA\n");

        CoordinatorConfig config = parse("--http-tokens-file", tokens.toString(), "--http-require-token-for-reads",
                "--http-idle-timeout-ms", "3000", "--http-max-connections", "64").config();

        assertThat(config.queryServer().access().allowsMutations()).isTrue();
        assertThat(config.queryServer().access().readsNeedToken()).isTrue();
        assertThat(config.queryServer().idleTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(config.queryServer().maxConnections()).isEqualTo(64);
    }

    @Test
    void shouldServeAReadOnlyRestApiOnLoopbackByDefault() {
        CoordinatorConfig config = parse().config();

        assertThat(config.queryServer().bindAddress()).isEqualTo("127.0.0.1");
        assertThat(config.queryServer().advertisedHost()).isEqualTo("127.0.0.1");
        assertThat(config.queryServer().access().allowsMutations()).isFalse();
        assertThat(config.queryServer().access().readsNeedToken()).isFalse();
    }

    @Test
    void shouldNameTheFlagTheFileAndTheKeyOfAMalformedTokensFile() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens.properties"), "ops.token=short\n");

        Result result = run("--http-tokens-file", tokens.toString());

        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("--http-tokens-file: tokens file " + tokens + ": key 'ops.token'")
                .doesNotContain("short");
    }

    @Test
    void shouldRefuseToRequireTokensForReadsWithoutATokensFile() {
        Result result = run("--http-require-token-for-reads");

        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("--http-require-token-for-reads needs --http-tokens-file");
    }

    @Test
    void shouldServeHttpsWithAKeystoreWhosePasswordIsInAFile() throws Exception {
        Path keystore = SelfSignedKeystore.create(dir);
        Path password = Files.writeString(dir.resolve("keystore.password"), SelfSignedKeystore.PASSWORD + "\n");

        CoordinatorConfig config = parse("--http-tls-keystore", keystore.toString(),
                "--http-tls-keystore-password-file", password.toString()).config();

        assertThat(config.queryServer().scheme()).isEqualTo("https");
    }

    @Test
    void shouldNameTheFlagOfAWrongKeystorePasswordAtStartUp() throws Exception {
        Path keystore = SelfSignedKeystore.create(dir);

        Result result = run("--http-tls-keystore", keystore.toString(), "--http-tls-keystore-password", "wrong");

        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("--http-tls-keystore-password does not open " + keystore);
    }

    @Test
    void shouldRefuseAKeystoreWithoutPasswordOrWithTwo() throws Exception {
        Path keystore = SelfSignedKeystore.create(dir);
        Path password = Files.writeString(dir.resolve("keystore.password"), SelfSignedKeystore.PASSWORD);

        assertThat(run("--http-tls-keystore", keystore.toString()).err()).contains(
                "--http-tls-keystore needs --http-tls-keystore-password or --http-tls-keystore-password-file");
        assertThat(run("--http-tls-keystore", keystore.toString(), "--http-tls-keystore-password", "x",
                "--http-tls-keystore-password-file", password.toString()).err()).contains(
                "give --http-tls-keystore-password or --http-tls-keystore-password-file, not both");
    }

    private static CoordinatorMain parse(String... args) {
        CoordinatorMain main = new CoordinatorMain();
        new CommandLine(main).parseArgs(args);
        return main;
    }

    private record Result(int exit, String err) {}

    private static Result run(String... args) {
        StringWriter err = new StringWriter();
        CommandLine commandLine = CoordinatorMain.commandLine();
        commandLine.setErr(new PrintWriter(err, true));
        int exit = commandLine.execute(args);
        return new Result(exit, err.toString());
    }
}
