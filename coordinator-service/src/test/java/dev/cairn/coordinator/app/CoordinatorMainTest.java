package dev.cairn.coordinator.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.auth.SigningKey;
import dev.cairn.coordinator.http.ClientLimits;
import dev.cairn.coordinator.http.QueryServerConfig;
import dev.cairn.coordinator.http.SelfSignedKeystore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class CoordinatorMainTest {

    @TempDir
    Path dir;

    @Test
    void shouldBuildTheConfigurationWhenEveryFlagIsGiven() throws Exception {
        Path kafkaConfig = Files.writeString(dir.resolve("kafka.properties"),
                "security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\n");
        CoordinatorMain main = parse("--bootstrap-servers", "k1:9092,k2:9092", "--application-id", "cairn-a",
                "--topic-prefix", "prod.cairn.", "--partitions", "12", "--replication-factor", "3",
                "--state-dir", dir.toString(), "--tick-interval-ms", "250", "--commit-interval-ms", "50",
                "--kafka-config", kafkaConfig.toString(), "--allow-unsigned-sidecar-records",
                "--allow-unsigned-requests");

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
    void shouldBuildTheFailoverSettingsWhenFailoverFlagsAreGiven() {
        CoordinatorMain main = parse("--allow-unsigned-sidecar-records", "--allow-unsigned-requests", "--state-dir",
                dir.toString(), "--instance-id", "coordinator-a",
                "--session-timeout-ms", "9000", "--heartbeat-interval-ms", "3000", "--standby-replicas", "2",
                "--acceptable-recovery-lag", "500", "--probing-rebalance-interval-ms", "120000",
                "--transaction-timeout-ms", "7000");

        CoordinatorConfig.Failover failover = main.config().failover();

        assertThat(failover).isEqualTo(new CoordinatorConfig.Failover("coordinator-a", Duration.ofSeconds(9),
                Duration.ofSeconds(3), 2, 500, Duration.ofMinutes(2), Duration.ofSeconds(7)));
    }

    @Test
    void shouldDeriveAStableInstanceIdWhenNoneIsGiven() {
        String first = parse("--allow-unsigned-sidecar-records", "--allow-unsigned-requests", "--state-dir",
                dir.toString()).config().failover().instanceId();
        String again = parse("--allow-unsigned-sidecar-records", "--allow-unsigned-requests", "--state-dir",
                dir.toString()).config().failover().instanceId();
        String elsewhere = parse("--allow-unsigned-sidecar-records", "--allow-unsigned-requests", "--state-dir",
                dir.resolve("other").toString()).config().failover().instanceId();

        assertThat(first).isEqualTo(again).isNotEqualTo(elsewhere).isNotBlank();
    }

    @Test
    void shouldUseDynamicMembershipWhenTheInstanceIdIsEmpty() {
        assertThat(parse("--allow-unsigned-sidecar-records", "--allow-unsigned-requests", "--instance-id", "")
                .config().failover().instanceId()).isNull();
    }

    @Test
    void shouldFailOverInSecondsWhenNothingIsGiven() {
        CoordinatorConfig.Failover failover = parse("--allow-unsigned-sidecar-records",
                "--allow-unsigned-requests").config().failover();

        assertThat(failover.sessionTimeout()).isEqualTo(Duration.ofSeconds(6));
        assertThat(failover.heartbeatInterval()).isEqualTo(Duration.ofMillis(1500));
        assertThat(failover.transactionTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(failover.standbyReplicas()).isEqualTo(1);
    }

    @Test
    void shouldRefuseStartUpWhenTheHeartbeatIsLongerThanAThirdOfTheSession() {
        Result result = run("--session-timeout-ms", "6000", "--heartbeat-interval-ms", "3000");
        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("heartbeat-interval (3000 ms) must be at most a third of session-timeout");
    }

    @Test
    void shouldNameTheFlagWhenThePartitionCountIsNotANumber() {
        Result result = run("--partitions", "many");
        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("Invalid value many for configuration partitions: Not a number of type INT "
                + "(flag --partitions)");
    }

    @Test
    void shouldRefuseStartUpWhenThePartitionCountIsNotPositive() {
        Result result = run("--partitions", "0", "--bootstrap-servers", "127.0.0.1:1",
                "--allow-unsigned-sidecar-records",
                "--allow-unsigned-requests");
        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("Invalid value 0 for configuration partitions: Value must be at least 1 "
                + "(flag --partitions)");
    }

    @Test
    void shouldLeaveTheReplicationFactorToTheBrokersAndAskForOneReplicaWhenNothingIsGiven() {
        CoordinatorConfig config = parse("--allow-unsigned-sidecar-records", "--allow-unsigned-requests").config();

        assertThat(config.replicationFactor()).isEqualTo(CoordinatorConfig.BROKER_DEFAULT_REPLICAS)
                .isEqualTo((short) -1);
        assertThat(config.minReplicationFactor()).isEqualTo((short) 1);
        assertThat(CoordinatorApp.streamsProperties(config)).containsEntry("replication.factor", "-1");
    }

    @Test
    void shouldRefuseStartUpNamingWhatIsAllowedWhenTheReplicationFactorIsZero() {
        Result result = run("--replication-factor", "0", "--allow-unsigned-sidecar-records",
                "--allow-unsigned-requests");

        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("Invalid value 0 for configuration replication.factor: Value must be -1 (the "
                + "brokers' default.replication.factor) or at least 1 (flag --replication-factor)");
    }

    @Test
    void shouldRefuseStartUpNamingTheVariableWhenTheReplicationFactorIsBelowMinusOne() {
        Result result = runWith(Map.of("CAIRN_REPLICATION_FACTOR", "-2"), "--allow-unsigned-sidecar-records",
                "--allow-unsigned-requests");

        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("Invalid value -2 for configuration replication.factor: Value must be -1 "
                + "(the brokers' default.replication.factor) or at least 1 (environment variable "
                + "CAIRN_REPLICATION_FACTOR)");
    }

    @Test
    void shouldRefuseStartUpNamingTheFileWhenTheMinReplicationFactorIsNotANumber() throws Exception {
        Path file = Files.writeString(dir.resolve("coordinator.properties"), "min.replication.factor=abc\n");

        Result result = run("--config", file.toString(), "--allow-unsigned-sidecar-records",
                "--allow-unsigned-requests");

        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("Invalid value abc for configuration min.replication.factor: Not a number "
                + "of type SHORT (file " + file + ")");
    }

    @Test
    void shouldRefuseStartUpWhenTheMinReplicationFactorIsZero() {
        Result result = run("--min-replication-factor", "0", "--allow-unsigned-sidecar-records",
                "--allow-unsigned-requests");

        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("Invalid value 0 for configuration min.replication.factor: Value must be "
                + "at least 1 (flag --min-replication-factor)");
    }

    @Test
    void shouldRefuseStartUpWhenTheTopicsItCreatesWouldHaveFewerReplicasThanTheMinimum() {
        Result result = run("--replication-factor", "2", "--min-replication-factor", "3",
                "--allow-unsigned-sidecar-records", "--allow-unsigned-requests");

        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("replication.factor (flag --replication-factor): creates topics with 2 "
                + "replicas, fewer than min.replication.factor (flag --min-replication-factor) requires (3), so the "
                + "coordinator would refuse to start on them; raise replication.factor or lower "
                + "min.replication.factor");
    }

    @Test
    void shouldAcceptAMinReplicationFactorAboveTheBrokersDefaultReplicationFactor() {
        CoordinatorConfig config = parse("--min-replication-factor", "3", "--allow-unsigned-sidecar-records",
                "--allow-unsigned-requests").config();

        assertThat(config.replicationFactor()).isEqualTo((short) -1);
        assertThat(config.minReplicationFactor()).isEqualTo((short) 3);
    }

    @Test
    void shouldRefuseStartUpWhenKafkaCannotNameTheTopicPrefix() {
        Result result = run("--topic-prefix", "cairn/");
        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("topic.prefix (flag --topic-prefix): topic prefix 'cairn/' may contain only "
                + "letters, digits");
    }

    @Test
    void shouldNameTheKafkaConfigFileWhenItCannotBeRead() {
        Result result = run("--kafka-config", dir.resolve("missing.properties").toString());
        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("kafka.config (flag --kafka-config): cannot read")
                .contains("missing.properties (it does not exist)");
    }

    @Test
    void shouldNameTheKafkaConfigFileWhenItIsNotAPropertiesFile() throws Exception {
        Path broken = Files.writeString(dir.resolve("broken.properties"), "sasl.jaas.config=\\u12zz\n");
        Result result = run("--kafka-config", broken.toString());
        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("broken.properties is not a properties file").contains("Malformed");
    }

    @Test
    void shouldRefuseStartUpWhenNeitherAMasterKeyNorUnsignedRecordsAreGiven() {
        Result result = run("--bootstrap-servers", "127.0.0.1:1");
        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("sidecar.master.key.file is missing")
                .contains("give --sidecar-master-key-file, set the environment variable CAIRN_SIDECAR_MASTER_KEY_FILE")
                .contains("--allow-unsigned-sidecar-records",
                "--allow-unsigned-requests");
    }

    @Test
    void shouldReadTheMasterKeyWhenAMasterKeyFileIsGiven() throws Exception {
        SigningKey key = SigningKey.generate();
        Path file = Files.writeString(dir.resolve("master.key"), key.toBase64() + "\n");

        CoordinatorConfig config = parse("--sidecar-master-key-file", file.toString()).config();

        assertThat(config.sidecarMasterKey().jobKey("orders").toBase64()).isEqualTo(key.jobKey("orders").toBase64());
    }

    @Test
    void shouldNameTheMasterKeyFileWhenItHoldsNoKey() throws Exception {
        Path file = Files.writeString(dir.resolve("short.key"), "c2hvcnQ=\n");
        Result result = run("--sidecar-master-key-file", file.toString());
        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("sidecar.master.key.file (flag --sidecar-master-key-file): the key file")
                .contains("short.key")
                .contains("has 5 bytes; at least 32 are needed");
    }

    @Test
    void shouldRefuseStartUpWhenAMasterKeyAndUnsignedRecordsAreBothGiven() throws Exception {
        Path file = Files.writeString(dir.resolve("master.key"), SigningKey.generate().toBase64());
        Result result = run("--sidecar-master-key-file", file.toString(), "--allow-unsigned-sidecar-records");
        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("sidecar.master.key.file (flag --sidecar-master-key-file) and "
                + "allow.unsigned.sidecar.records (flag --allow-unsigned-sidecar-records) are both set");
    }

    @Test
    void shouldRequireSignedRequestsWithTheRequestsKeyWhenAMasterKeyFileIsGiven() throws Exception {
        SigningKey key = SigningKey.generate();
        Path file = Files.writeString(dir.resolve("master.key"), key.toBase64() + "\n");

        CoordinatorConfig config = parse("--sidecar-master-key-file", file.toString()).config();

        assertThat(config.allowUnsignedRequests()).isFalse();
        assertThat(config.requestsKeys()).map(keys -> keys.current().toBase64())
                .contains(key.requestsKey().toBase64());
    }

    @Test
    void shouldAcceptUnsignedRequestsBesideAMasterKeyWhenAllowUnsignedRequestsIsSet() throws Exception {
        Path file = Files.writeString(dir.resolve("master.key"), SigningKey.generate().toBase64());

        CoordinatorConfig config = parse("--sidecar-master-key-file", file.toString(), "--allow-unsigned-requests")
                .config();

        assertThat(config.allowUnsignedRequests()).isTrue();
        assertThat(config.requestsKeys()).as("the REST API still signs what it publishes").isPresent();
    }

    @Test
    void shouldRefuseStartUpAndSayWhatToSetWhenUnsignedSidecarRecordsAreAllowedButUnsignedRequestsAreNot() {
        Result result = run("--bootstrap-servers", "127.0.0.1:1", "--allow-unsigned-sidecar-records");

        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("allow.unsigned.sidecar.records (flag --allow-unsigned-sidecar-records) is "
                + "set without sidecar.master.key.file, so there is no requests key either")
                .contains("set allow.unsigned.requests=true too (--allow-unsigned-requests, "
                        + "CAIRN_ALLOW_UNSIGNED_REQUESTS)")
                .contains("or give sidecar.master.key.file instead");
    }

    @Test
    void shouldRefuseStartUpNamingTheMasterKeyWhenOnlyUnsignedRequestsAreAllowed() {
        Result result = run("--bootstrap-servers", "127.0.0.1:1", "--allow-unsigned-requests");

        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("sidecar.master.key.file is missing")
                .contains("or set both allow.unsigned.sidecar.records and allow.unsigned.requests "
                        + "(--allow-unsigned-sidecar-records --allow-unsigned-requests)");
    }

    @Test
    void shouldAllowTheLocationSchemesOfFlinksFileSystemsUnlessTold() {
        CoordinatorConfig defaults = parse("--allow-unsigned-sidecar-records", "--allow-unsigned-requests").config();
        CoordinatorConfig told = parse("--allow-unsigned-sidecar-records", "--allow-unsigned-requests",
                "--location-schemes", "file, MinIO").config();

        assertThat(defaults.inputLimits().locationSchemes()).contains("file", "s3", "hdfs", "gs")
                .doesNotContain("http");
        assertThat(told.inputLimits().locationSchemes()).containsExactlyInAnyOrder("file", "minio");
    }

    @Test
    void shouldNameTheFlagWhenALocationSchemeIsNoUriScheme() {
        Result result = run("--allow-unsigned-sidecar-records", "--allow-unsigned-requests",
                "--location-schemes", "file,s3://");

        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("location.schemes").contains("'s3://' is not a URI scheme")
                .contains("--location-schemes");
    }

    @Test
    void shouldNameTheFlagWhenAllowUnsignedRequestsIsNeitherTrueNorFalse() {
        Result result = run("--allow-unsigned-sidecar-records", "--allow-unsigned-requests=maybe");

        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("for configuration allow.unsigned.requests: Expected value to be either true "
                + "or false (flag --allow-unsigned-requests)");
    }

    @Test
    void shouldNameTheEnvironmentVariableWhenAllowUnsignedRequestsIsNeitherTrueNorFalse() {
        Result result = runWith(Map.of("CAIRN_ALLOW_UNSIGNED_REQUESTS", "yes"), "--allow-unsigned-sidecar-records");

        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("for configuration allow.unsigned.requests: Expected value to be either true "
                + "or false (environment variable CAIRN_ALLOW_UNSIGNED_REQUESTS)");
    }

    @Test
    void shouldAllowMutationsWhenATokensFileIsGiven() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens.properties"), "ops.token=Zm9vYmFyYmF6cXV4cXV1eA\n");

        CoordinatorConfig config = parse("--allow-unsigned-sidecar-records", "--allow-unsigned-requests",
                "--http-tokens-file", tokens.toString(), "--http-require-token-for-reads",
                "--http-idle-timeout-ms", "3000", "--http-max-connections", "64").config();

        assertThat(config.queryServer().access()).hasToString("mutations for ops; reads need a token");
        assertThat(config.queryServer().access().readsNeedToken()).isTrue();
        assertThat(config.queryServer().limits().idleTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(config.queryServer().limits().maxConnections()).isEqualTo(64);
    }

    @Test
    void shouldServeAReadOnlyRestApiOnLoopbackWhenNothingIsGiven() {
        CoordinatorConfig config = parse("--allow-unsigned-sidecar-records",
                "--allow-unsigned-requests").config();

        assertThat(config.queryServer().bindAddress()).isEqualTo("127.0.0.1");
        assertThat(config.queryServer().advertisedHost()).isEqualTo("127.0.0.1");
        assertThat(config.queryServer().access()).hasToString("read-only: no tokens file");
        assertThat(config.queryServer().access().readsNeedToken()).isFalse();
    }

    @Test
    void shouldLimitEachRestClientAndServeTheProbesAThousandAboveTheApiWhenNothingIsGiven() {
        QueryServerConfig config = parse("--allow-unsigned-sidecar-records", "--allow-unsigned-requests").config()
                .queryServer();

        assertThat(config.limits()).isEqualTo(ClientLimits.DEFAULTS);
        assertThat(config.limits().maxConnectionsPerClient()).isEqualTo(20);
        assertThat(config.limits().minRequestDataRate()).isEqualTo(1024);
        assertThat(config.port()).isEqualTo(8081);
        assertThat(config.probesPort()).isEqualTo(9081);
    }

    @Test
    void shouldPutTheProbesBesideTheApiPortByDefaultOrWhereTheyAreToldOrNowhere() {
        assertThat(parse("--allow-unsigned-sidecar-records", "--allow-unsigned-requests", "--http-port", "8181")
                .config().queryServer().probesPort()).as("beside another API port").isEqualTo(9181);
        assertThat(parse("--allow-unsigned-sidecar-records", "--allow-unsigned-requests", "--http-port", "0")
                .config().queryServer().probesPort()).as("a free port beside a free API port").isZero();
        assertThat(parse("--allow-unsigned-sidecar-records", "--allow-unsigned-requests", "--http-probes-port", "-1")
                .config().queryServer().probesPort()).as("none").isEqualTo(QueryServerConfig.NO_PROBES_PORT);
    }

    @Test
    void shouldRefuseAnApiPortWhoseDefaultProbesPortWouldBeAbove65535() {
        Result result = runWith(Map.of(), "--allow-unsigned-sidecar-records", "--allow-unsigned-requests",
                "--http-port", "65000");

        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("http.port", "is 65000, so the probes port it sets by default, http.port + "
                + "1000, would be above 65535: set http.probes.port (or -1 for none)");
    }

    @Test
    void shouldBuildTheClientLimitsAndProbesPortWhenTheirFlagsAreGiven() {
        QueryServerConfig config = parse("--allow-unsigned-sidecar-records", "--allow-unsigned-requests",
                "--http-probes-port", "9081",
                "--http-max-connections-per-client", "0", "--http-min-request-data-rate", "4096",
                "--http-header-timeout-ms", "2500").config().queryServer();

        assertThat(config.probesPort()).isEqualTo(9081);
        assertThat(config.limits()).isEqualTo(new ClientLimits(ClientLimits.DEFAULT_IDLE_TIMEOUT,
                ClientLimits.DEFAULT_MAX_CONNECTIONS, 0, 4096, Duration.ofMillis(2500)));
    }

    @Test
    void shouldNameTheFlagWhenAClientLimitIsMalformedOrOutOfRange() {
        assertThat(run("--http-min-request-data-rate", "fast").err()).contains("Invalid value fast for configuration "
                + "http.min.request.data.rate: Not a number of type LONG (flag --http-min-request-data-rate)");
        assertThat(run("--http-max-connections-per-client", "-1").err()).contains("Invalid value -1 for "
                + "configuration http.max.connections.per.client: Value must be at least 0 "
                + "(flag --http-max-connections-per-client)");
        assertThat(run("--http-header-timeout-ms", "0").err()).contains("Invalid value 0 for configuration "
                + "http.header.timeout.ms: Value must be at least 1 (flag --http-header-timeout-ms)");
        Result probes = run("--http-probes-port", "70000");
        assertThat(probes.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(probes.err()).contains("Invalid value 70000 for configuration http.probes.port: Value must be no "
                + "more than 65535 (flag --http-probes-port)");
    }

    @Test
    void shouldRefuseStartUpWhenTheProbesPortIsTheApiPort() {
        Result result = run("--allow-unsigned-sidecar-records", "--http-port", "9090", "--http-probes-port", "9090");

        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("http.probes.port (flag --http-probes-port): must differ from http.port "
                + "(9090)");
    }

    @Test
    void shouldNameTheFlagTheFileAndTheEntryWhenTheTokensFileIsMalformed() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens.properties"), "ops.token=short\n");

        Result result = run("--http-tokens-file", tokens.toString());

        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("http.tokens.file (flag --http-tokens-file): tokens file " + tokens
                + ": key 'ops.token'")
                .doesNotContain("short");
    }

    @Test
    void shouldRefuseStartUpWhenReadsNeedTokensButNoTokensFileIsGiven() {
        Result result = run("--http-require-token-for-reads");

        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("http.require.token.for.reads (flag --http-require-token-for-reads): needs "
                + "http.tokens.file");
    }

    @Test
    void shouldServeHttpsWhenAKeystoreAndItsPasswordFileAreGiven() throws Exception {
        Path keystore = SelfSignedKeystore.create(dir);
        Path password = Files.writeString(dir.resolve("keystore.password"), SelfSignedKeystore.PASSWORD + "\n");

        CoordinatorConfig config = parse("--allow-unsigned-sidecar-records", "--allow-unsigned-requests",
                "--http-tls-keystore", keystore.toString(),
                "--http-tls-keystore-password-file", password.toString()).config();

        assertThat(config.queryServer().scheme()).isEqualTo("https");
    }

    @Test
    void shouldNameTheFlagWhenTheKeystorePasswordIsWrong() throws Exception {
        Path keystore = SelfSignedKeystore.create(dir);

        Result result = run("--http-tls-keystore", keystore.toString(), "--http-tls-keystore-password", "wrong");

        assertThat(result.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(result.err()).contains("--http-tls-keystore-password does not open " + keystore);
    }

    @Test
    void shouldRefuseAKeystoreWhenItHasNoPasswordOrTwo() throws Exception {
        Path keystore = SelfSignedKeystore.create(dir);
        Path password = Files.writeString(dir.resolve("keystore.password"), SelfSignedKeystore.PASSWORD);

        assertThat(run("--http-tls-keystore", keystore.toString()).err()).contains(
                "--http-tls-keystore needs --http-tls-keystore-password or --http-tls-keystore-password-file");
        assertThat(run("--http-tls-keystore", keystore.toString(), "--http-tls-keystore-password", "x",
                "--http-tls-keystore-password-file", password.toString()).err()).contains(
                "http.tls.keystore.password (flag --http-tls-keystore-password) and http.tls.keystore.password.file "
                        + "(flag --http-tls-keystore-password-file) are both set: give one, not both");
    }

    @Test
    void shouldExitZeroWhenRehearsingWithoutKafka() {
        Result result = run("--rehearse", "--allow-unsigned-sidecar-records", "--allow-unsigned-requests",
                "--bootstrap-servers", "127.0.0.1:1", "--state-dir", dir.resolve("rehearsal").toString());

        assertThat(result.exit()).as(result.err()).isZero();
    }

    private static CoordinatorMain parse(String... args) {
        return parseWith(Map.of(), args);
    }

    static CoordinatorMain parseWith(Map<String, String> environment, String... args) {
        CoordinatorMain main = new CoordinatorMain(environment);
        CoordinatorMain.commandLine(main).parseArgs(args);
        return main;
    }

    record Result(int exit, String err) {}

    private static Result run(String... args) {
        return runWith(Map.of(), args);
    }

    static Result runWith(Map<String, String> environment, String... args) {
        StringWriter err = new StringWriter();
        CommandLine commandLine = CoordinatorMain.commandLine(new CoordinatorMain(environment));
        commandLine.setErr(new PrintWriter(err, true));
        int exit = commandLine.execute(args);
        return new Result(exit, err.toString());
    }
}
