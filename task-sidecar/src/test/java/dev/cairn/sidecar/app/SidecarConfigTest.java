package dev.cairn.sidecar.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.auth.SigningKey;
import dev.cairn.config.ConfigProblem;
import dev.cairn.config.LayeredConfig;
import dev.cairn.events.topics.CairnTopics;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading a sidecar's settings from a properties file and the environment, and refusing bad ones. */
class SidecarConfigTest {

    private static final Map<String, String> NO_ENV = Map.of();

    @TempDir
    Path dir;

    private static Map<String, String> minimal() {
        Map<String, String> props = new HashMap<>();
        props.put("bootstrap.servers", "kafka:9092");
        props.put("job.id", "orders");
        props.put("task.id", "sink");
        props.put("subtask.index", "2");
        return props;
    }

    private static Map<String, String> with(String key, String value) {
        Map<String, String> props = minimal();
        props.put(key, value);
        return props;
    }

    private static Map<String, String> without(String key) {
        Map<String, String> props = minimal();
        props.remove(key);
        return props;
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> rejecting(Map<String, String> props,
            Map<String, String> env, String setting) {
        return assertThatThrownBy(() -> SidecarConfig.fromProperties(props, env))
                .isInstanceOfSatisfying(ConfigProblem.class, e -> assertThat(e.key()).isEqualTo(setting))
                .hasMessageContaining(setting);
    }

    @Test
    void shouldBuildAJavaHookSidecarWithDefaultsWhenTheFileHasOnlyTheRequiredKeys() throws Exception {
        Path file = dir.resolve("sidecar.properties");
        Files.writeString(file, "bootstrap.servers = kafka:9092\njob.id=orders\ntask.id=sink\nsubtask.index=2\n",
                StandardCharsets.UTF_8);

        SidecarConfig config = SidecarConfig.load(file, NO_ENV);

        assertThat(config.bootstrapServers()).isEqualTo("kafka:9092");
        assertThat(config.jobId()).isEqualTo("orders");
        assertThat(config.taskId()).isEqualTo("sink");
        assertThat(config.subtaskIndex()).isEqualTo(2);
        assertThat(config.topics()).isEqualTo(CairnTopics.defaults());
        assertThat(config.hookKind()).isEqualTo(HookKind.JAVA);
        assertThat(config.hookClass()).isNull();
        assertThat(config.snapshotTimeout()).isEqualTo(Duration.ofMinutes(10));
        assertThat(config.hookTimeout()).isEqualTo(config.snapshotTimeout());
        assertThat(config.kafkaProperties()).isEmpty();
    }

    @Test
    void shouldReadEveryKeyWhenAllAreGiven() {
        Map<String, String> props = minimal();
        props.put("topic.prefix", "prod.cairn.");
        props.put("hook.kind", "HTTP");
        props.put("hook.url", "http://127.0.0.1:8090/cairn");
        props.put("hook.timeout.ms", "2500");
        props.put("snapshot.timeout.ms", "30000");
        props.put("startup.timeout.ms", "5000");
        props.put("kafka.security.protocol", "SASL_SSL");

        SidecarConfig config = SidecarConfig.fromProperties(props, NO_ENV);

        assertThat(config.topics().control()).isEqualTo("prod.cairn.control");
        assertThat(config.hookKind()).isEqualTo(HookKind.HTTP);
        assertThat(config.hookUrl()).isEqualTo(URI.create("http://127.0.0.1:8090/cairn"));
        assertThat(config.hookTimeout()).isEqualTo(Duration.ofMillis(2_500));
        assertThat(config.snapshotTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.startupTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.kafkaProperties()).containsExactlyEntriesOf(Map.of("security.protocol", "SASL_SSL"));
        assertThat(config.runtimeSettings().kafkaProperties()).containsEntry("security.protocol", "SASL_SSL");
    }

    @Test
    void shouldLetTheEnvironmentOverrideTheFileWhenBothGiveAKey() {
        Map<String, String> env = Map.of(
                "CAIRN_SIDECAR_JOB_ID", "payments",
                "CAIRN_SIDECAR_SUBTASK_INDEX", "0",
                "CAIRN_SIDECAR_SNAPSHOT_TIMEOUT_MS", "1000",
                "CAIRN_SIDECAR_KAFKA_SASL_MECHANISM", "PLAIN",
                "PATH", "/usr/bin");

        SidecarConfig config = SidecarConfig.fromProperties(with("kafka.sasl.mechanism", "GSSAPI"), env);

        assertThat(config.jobId()).isEqualTo("payments");
        assertThat(config.subtaskIndex()).isZero();
        assertThat(config.snapshotTimeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(config.kafkaProperties()).containsEntry("sasl.mechanism", "PLAIN");
    }

    @Test
    void shouldStartFromTheEnvironmentWhenNoFileIsGiven() {
        Map<String, String> env = Map.of("CAIRN_SIDECAR_BOOTSTRAP_SERVERS", "k:9092", "CAIRN_SIDECAR_JOB_ID", "j",
                "CAIRN_SIDECAR_TASK_ID", "t", "CAIRN_SIDECAR_SUBTASK_INDEX", "3", "CAIRN_SIDECAR_HOOK_KIND", "command",
                "CAIRN_SIDECAR_HOOK_COMMAND", "/opt/worker/snapshot.sh --fast 'two words'");

        SidecarConfig config = SidecarConfig.fromProperties(Map.of(), env);

        assertThat(config.hookKind()).isEqualTo(HookKind.COMMAND);
        assertThat(config.hookCommand()).containsExactly("/opt/worker/snapshot.sh", "--fast", "two words");
    }

    @Test
    void shouldNameTheEnvironmentVariableWhenJobIdIsMissing() {
        rejecting(without("job.id"), NO_ENV, "job.id").hasMessageContaining("missing")
                .hasMessageContaining("CAIRN_SIDECAR_JOB_ID");
    }

    @Test
    void shouldRejectTheJobIdWhenItIsBlank() {
        rejecting(with("job.id", "  "), NO_ENV, "job.id").hasMessageContaining("String must be non-empty");
    }

    @Test
    void shouldNameTheKeyWhenBootstrapServersTaskOrSubtaskIsMissing() {
        rejecting(without("bootstrap.servers"), NO_ENV, "bootstrap.servers");
        rejecting(without("task.id"), NO_ENV, "task.id");
        rejecting(without("subtask.index"), NO_ENV, "subtask.index");
    }

    @Test
    void shouldNameTheValueAndItsSourceWhenTheSubtaskIndexIsNotANumber() {
        rejecting(minimal(), Map.of("CAIRN_SIDECAR_SUBTASK_INDEX", "first"), "subtask.index")
                .hasMessageContaining("Invalid value first for configuration subtask.index: Not a number of type INT "
                        + "(environment variable CAIRN_SIDECAR_SUBTASK_INDEX)");
    }

    @Test
    void shouldRejectTheSubtaskIndexWhenItIsNegative() {
        rejecting(with("subtask.index", "-1"), NO_ENV, "subtask.index")
                .hasMessageContaining("Value must be at least 0");
    }

    @Test
    void shouldListTheKnownHookKindsWhenTheGivenOneIsUnknown() {
        rejecting(with("hook.kind", "grpc"), NO_ENV, "hook.kind").hasMessageContaining("Invalid value grpc")
                .hasMessageContaining("JAVA, HTTP, COMMAND");
    }

    @Test
    void shouldRejectTheHookUrlWhenItIsNotAUrl() {
        Map<String, String> props = with("hook.kind", "http");
        props.put("hook.url", "not a url");
        rejecting(props, NO_ENV, "hook.url").hasMessageContaining("'not a url'");
    }

    @Test
    void shouldRejectTheHookUrlWhenItHasNoHttpSchemeOrHost() {
        Map<String, String> props = with("hook.kind", "http");
        props.put("hook.url", "ftp://worker/x");
        rejecting(props, NO_ENV, "hook.url").hasMessageContaining("http");
        props.put("hook.url", "/snapshot");
        rejecting(props, NO_ENV, "hook.url");
    }

    @Test
    void shouldRejectAnHttpHookWhenItHasNoUrl() {
        rejecting(with("hook.kind", "http"), NO_ENV, "hook.url").hasMessageContaining("missing");
    }

    @Test
    void shouldRejectACommandHookWhenItHasNoCommandOrAnUnclosedQuote() {
        rejecting(with("hook.kind", "command"), NO_ENV, "hook.command").hasMessageContaining("missing");
        Map<String, String> props = with("hook.kind", "command");
        props.put("hook.command", "snapshot.sh 'unclosed");
        rejecting(props, NO_ENV, "hook.command").hasMessageContaining("quote");
    }

    @Test
    void shouldSayWhichKindUsesAHookKeyWhenItIsSetForAnotherKind() {
        rejecting(with("hook.url", "http://localhost:8090"), NO_ENV, "hook.url")
                .hasMessageContaining("hook.kind=http");
        rejecting(with("hook.command", "x.sh"), NO_ENV, "hook.command").hasMessageContaining("hook.kind=command");
    }

    @Test
    void shouldRejectTheHookClassWhenItsNameIsMalformed() {
        rejecting(with("hook.class", "com.example.My Hook"), NO_ENV, "hook.class");
    }

    @Test
    void shouldRejectATimeoutWhenItIsNotAPositiveNumber() {
        rejecting(with("snapshot.timeout.ms", "0"), NO_ENV, "snapshot.timeout.ms")
                .hasMessageContaining("Value must be at least 1");
        rejecting(with("hook.timeout.ms", "5s"), NO_ENV, "hook.timeout.ms").hasMessageContaining("Invalid value 5s");
        rejecting(with("startup.timeout.ms", "-3"), NO_ENV, "startup.timeout.ms");
    }

    @Test
    void shouldRejectTheTopicPrefixWhenItHasIllegalCharacters() {
        rejecting(with("topic.prefix", "cairn/"), NO_ENV, "topic.prefix");
    }

    @Test
    void shouldIgnoreAnUnknownKeyWithAWarningWhenTheFileHasOneAsKafkaDoes() {
        LayeredConfig config = LayeredConfig.load(SidecarKeys.SCHEMA, Map.of(), NO_ENV, with("jobid", "payments"),
                "the properties");

        assertThat(config.originals()).doesNotContainKey("jobid");
        assertThat(SidecarConfig.fromProperties(with("jobid", "payments"), NO_ENV).jobId()).isEqualTo("orders");
    }

    @Test
    void shouldPreferAFlagToTheEnvironmentWhenBothGiveAKey() {
        LayeredConfig config = LayeredConfig.load(SidecarKeys.SCHEMA, Map.of("job.id", "from-flag"),
                Map.of("CAIRN_SIDECAR_JOB_ID", "from-env"), minimal(), "the properties");

        assertThat(SidecarKeys.toConfig(config).jobId()).isEqualTo("from-flag");
        assertThat(config.source("job.id")).isEqualTo("flag --job-id");
    }

    @Test
    void shouldRejectTheKafkaPrefixWhenNoSettingFollowsIt() {
        rejecting(with("kafka.", "x"), NO_ENV, "kafka.");
    }

    @Test
    void shouldNameTheFileWhenItDoesNotExist() {
        Path missing = dir.resolve("nope.properties");
        assertThatThrownBy(() -> SidecarConfig.load(missing, NO_ENV)).isInstanceOf(ConfigProblem.class)
                .hasMessageContaining(missing.toString()).hasMessageContaining("does not exist");
    }

    @Test
    void shouldCheckTheConfigWhenItIsBuiltInCode() {
        SidecarConfig config = SidecarConfig.forTask("k:9092", "orders", "sink", 0);

        assertThatThrownBy(() -> SidecarConfigCopies.withCommandHook(config, List.of(), Duration.ofSeconds(1)))
                .isInstanceOf(ConfigProblem.class).hasMessageContaining("hook.command");
        assertThatThrownBy(() -> SidecarConfigCopies.withSnapshotTimeout(config, Duration.ZERO))
                .isInstanceOf(ConfigProblem.class).hasMessageContaining("snapshot.timeout.ms");
        assertThatThrownBy(() -> SidecarConfig.forTask("k:9092", "orders", "sink", -1))
                .isInstanceOf(ConfigProblem.class).hasMessageContaining("subtask.index");
        assertThat(SidecarConfigCopies.withHttpHook(config, URI.create("http://localhost:1/x"), Duration.ofSeconds(1))
                .hookKind()).isEqualTo(HookKind.HTTP);
    }

    @Test
    void shouldReadTheJobKeyWhenItIsGivenInlineOrAsAFile() throws Exception {
        SigningKey key = SigningKey.generate();
        Path file = Files.writeString(dir.resolve("orders.key"), key.toBase64() + "\n");

        SigningKey inline = SidecarConfig.fromProperties(with("auth.key", key.toBase64()), NO_ENV).authKey();
        SigningKey fromFile = SidecarConfig.fromProperties(with("auth.key.file", file.toString()), NO_ENV).authKey();

        assertThat(inline.toBase64()).isEqualTo(key.toBase64());
        assertThat(fromFile.toBase64()).isEqualTo(key.toBase64());
        assertThat(SidecarConfig.fromProperties(minimal(), NO_ENV).authKey()).isNull();
    }

    @Test
    void shouldRememberTheKeyFileSoThatTheRunningSidecarRereadsItButNotAnInlineKey() throws Exception {
        SigningKey key = SigningKey.generate();
        Path file = Files.writeString(dir.resolve("orders.key"), key.toBase64() + "\n");

        SidecarConfig fromFile = SidecarConfig.fromProperties(with("auth.key.file", file.toString()), NO_ENV);
        SidecarConfig inline = SidecarConfig.fromProperties(with("auth.key", key.toBase64()), NO_ENV);

        assertThat(fromFile.authKeyFile()).isEqualTo(file);
        assertThat(fromFile.runtimeSettings().authKeyFile()).isEqualTo(file);
        assertThat(inline.authKeyFile()).isNull();
        assertThat(fromFile.withAuthKey(key).authKeyFile()).as("a key given in code replaces the file's").isNull();
    }

    @Test
    void shouldRejectTheJobKeyWithoutPrintingItWhenItIsInvalid() {
        String tooShort = "c2VjcmV0LXNob3J0";
        rejecting(with("auth.key", tooShort), NO_ENV, "auth.key")
                .hasMessageContaining("auth.key (the properties): does not hold a valid key")
                .hasMessageContaining("at least 32 are needed")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(tooShort));
    }

    @Test
    void shouldRejectTheJobKeyWhenItIsGivenTwice() {
        Map<String, String> props = with("auth.key", SigningKey.generate().toBase64());
        props.put("auth.key.file", "/etc/cairn/orders.key");
        rejecting(props, NO_ENV, "auth.key.file").hasMessageContaining("auth.key.file (the properties) and auth.key "
                + "(the properties) are both set");
    }

    private static Map<String, String> participant(String name) {
        Map<String, String> props = without("task.id");
        props.remove("subtask.index");
        props.put("participant", name);
        return props;
    }

    @Test
    void shouldReadAParticipantSidecarWhenParticipantIsSetInsteadOfTaskAndSubtask() {
        // when
        SidecarConfig config = SidecarConfig.fromProperties(participant("offsets"), NO_ENV);

        // then
        assertThat(config.isParticipant()).isTrue();
        assertThat(config.participant()).isEqualTo("offsets");
        assertThat(config.taskId()).isNull();
        assertThat(config.subtaskIndex()).isEqualTo(-1);
        assertThat(config.runtimeSettings().participant()).isEqualTo("offsets");
        assertThat(config.runtimeSettings().name()).isEqualTo("orders/participant-offsets");
    }

    @Test
    void shouldReadTheParticipantFromTheEnvironmentWhenTheFileNamesNone() {
        Map<String, String> props = without("task.id");
        props.remove("subtask.index");

        SidecarConfig config = SidecarConfig.fromProperties(props, Map.of("CAIRN_SIDECAR_PARTICIPANT", "enumerator"));

        assertThat(config.participant()).isEqualTo("enumerator");
    }

    @Test
    void shouldRejectAParticipantWhenTaskIdOrSubtaskIndexIsSetToo() {
        Map<String, String> withTask = participant("offsets");
        withTask.put("task.id", "sink");
        Map<String, String> withSubtask = participant("offsets");
        withSubtask.put("subtask.index", "0");

        rejecting(withTask, NO_ENV, "task.id").hasMessageContaining("participant")
                .hasMessageContaining("stands for no task");
        rejecting(withSubtask, NO_ENV, "subtask.index").hasMessageContaining("participant");
        rejecting(without("subtask.index"), Map.of("CAIRN_SIDECAR_PARTICIPANT", "offsets"), "task.id")
                .hasMessageContaining("CAIRN_SIDECAR_PARTICIPANT");
    }

    @Test
    void shouldRejectTheParticipantNameWhenItHasControlCharacters() {
        rejecting(participant("off\u0000sets"), NO_ENV, "participant").hasMessageContaining("control characters")
                .hasMessageContaining("'off?sets'");
        rejecting(participant("off\tsets"), NO_ENV, "participant").hasMessageContaining("control characters");
    }

    @Test
    void shouldHintAtTheParticipantRoleWhenTaskIdIsMissing() {
        rejecting(without("task.id"), NO_ENV, "task.id").hasMessageContaining("missing")
                .hasMessageContaining("or set participant");
    }

    @Test
    void shouldCheckAParticipantConfigWhenItIsBuiltInCode() {
        SidecarConfig config = SidecarConfig.forParticipant("k:9092", "orders", "offsets");

        assertThat(config.isParticipant()).isTrue();
        assertThat(SidecarConfigCopies.withSnapshotTimeout(config, Duration.ofSeconds(3)).participant())
                .isEqualTo("offsets");
        assertThatThrownBy(() -> SidecarConfig.forParticipant("k:9092", "orders", " "))
                .isInstanceOfSatisfying(ConfigProblem.class,
                        e -> assertThat(e.key()).isEqualTo("participant"));
    }

    @Test
    void shouldLoadTheDocumentedSampleWhenItIsCopiedAsWritten() throws Exception {
        String page = Files.readString(Path.of("..", "docs", "sidecars.md"));
        java.util.regex.Matcher block = java.util.regex.Pattern.compile(
                "```properties\n(bootstrap\\.servers=[^`\n]*\njob\\.id=[^`]*)```")
                .matcher(page);
        assertThat(block.find()).as("the sidecar.properties sample of docs/sidecars.md").isTrue();
        Path key = Files.writeString(dir.resolve("orders.key"), SigningKey.generate().toBase64());
        Path file = Files.writeString(dir.resolve("sidecar.properties"),
                block.group(1).replace("/etc/cairn/orders.key", key.toString()));

        SidecarConfig config = SidecarConfig.load(file, NO_ENV);

        assertThat(config.hookKind()).isEqualTo(HookKind.HTTP);
        assertThat(config.hookUrl()).isEqualTo(URI.create("http://127.0.0.1:8090"));
        assertThat(config.kafkaProperties()).containsEntry("security.protocol", "SASL_SSL");
        assertThat(config.authKey()).isNotNull();
    }

    @Test
    void shouldNameTheWholeValueWhenALineEndsInWhatLooksLikeAComment() throws Exception {
        Path file = Files.writeString(dir.resolve("sidecar.properties"), "bootstrap.servers=k:9092\njob.id=orders\n"
                + "task.id=sink\nsubtask.index=0\nhook.kind=http  # java | http | command\n");

        assertThatThrownBy(() -> SidecarConfig.load(file, NO_ENV)).isInstanceOf(ConfigProblem.class)
                .hasMessageContaining("Invalid value http  # java | http | command for configuration hook.kind")
                .hasMessageContaining("(file " + file + ")");
    }

    @Test
    void shouldBindLoopbackWhenAMetricsPortIsSetAndServeNoMetricsWhenNot() {
        SidecarConfig none = SidecarConfig.fromProperties(minimal(), NO_ENV);
        SidecarConfig loopback = SidecarConfig.fromProperties(with("metrics.port", "9464"), NO_ENV);
        Map<String, String> everywhere = with("metrics.port", "0");
        everywhere.put("metrics.bind.address", "0.0.0.0");

        assertThat(none.metricsPort()).isNull();
        assertThat(loopback.metricsPort()).isEqualTo(9464);
        assertThat(loopback.metricsBindAddress()).isEqualTo("127.0.0.1");
        assertThat(SidecarConfig.fromProperties(everywhere, NO_ENV).metricsBindAddress()).isEqualTo("0.0.0.0");
        assertThat(SidecarConfig.fromProperties(minimal(), Map.of("CAIRN_SIDECAR_METRICS_PORT", "9100")).metricsPort())
                .isEqualTo(9100);
    }

    @Test
    void shouldRejectTheMetricsPortWhenItIsNoPortNumber() {
        rejecting(with("metrics.port", "http"), NO_ENV, "metrics.port")
                .hasMessage("Invalid value http for configuration metrics.port: Not a number of type INT "
                        + "(the properties)");
        rejecting(with("metrics.port", "65536"), NO_ENV, "metrics.port")
                .hasMessage("metrics.port must be a port number from 0 (any free port) to 65535, was '65536' "
                        + "(the properties)");
        rejecting(minimal(), Map.of("CAIRN_SIDECAR_METRICS_PORT", "-1"), "metrics.port")
                .hasMessageContaining("was '-1' (environment variable CAIRN_SIDECAR_METRICS_PORT)");
    }

    @Test
    void shouldRejectTheBindAddressWhenItHasNoPortOrWhiteSpace() {
        rejecting(with("metrics.bind.address", "0.0.0.0"), NO_ENV, "metrics.bind.address")
                .hasMessage("metrics.bind.address (the properties): is set but metrics.port is not; set metrics.port "
                        + "to serve metrics");
        Map<String, String> spaced = with("metrics.port", "9464");
        spaced.put("metrics.bind.address", "local host");
        rejecting(spaced, NO_ENV, "metrics.bind.address")
                .hasMessage("metrics.bind.address must be a host name or IP address, was 'local host' (the "
                        + "properties)");
        assertThatThrownBy(() -> SidecarConfigCopies.withMetrics(
                SidecarConfig.forTask("k:9092", "orders", "sink", 0), 70_000, "127.0.0.1"))
                .isInstanceOf(ConfigProblem.class).hasMessageContaining("was '70000'");
    }
}
