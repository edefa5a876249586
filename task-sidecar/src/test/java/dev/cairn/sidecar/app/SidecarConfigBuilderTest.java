package dev.cairn.sidecar.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.auth.SigningKey;
import dev.cairn.config.ConfigProblem;
import dev.cairn.events.topics.CairnTopics;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Building a sidecar's config in code: the key table's defaults, and a clear refusal of what is wrong. */
class SidecarConfigBuilderTest {

    @TempDir
    Path dir;

    private static SidecarConfigBuilder task() {
        return SidecarConfigBuilder.forTask("kafka:9092", "orders", "sink", 2);
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> refusing(SidecarConfigBuilder builder, String key) {
        return assertThatThrownBy(builder::build)
                .isInstanceOfSatisfying(ConfigProblem.class, e -> assertThat(e.key()).isEqualTo(key))
                .hasMessageContaining(key);
    }

    @Test
    void shouldTakeTheKeyTablesDefaultsWhenOnlyTheRequiredKeysAreSet() {
        SidecarConfig config = task().build();

        assertThat(config).isEqualTo(SidecarConfig.forTask("kafka:9092", "orders", "sink", 2));
        assertThat(config.topics()).isEqualTo(CairnTopics.defaults());
        assertThat(config.hookKind()).isEqualTo(HookKind.JAVA);
        assertThat(config.snapshotTimeout()).isEqualTo(SidecarConfig.DEFAULT_SNAPSHOT_TIMEOUT);
        assertThat(config.hookTimeout()).isEqualTo(SidecarConfig.DEFAULT_SNAPSHOT_TIMEOUT);
        assertThat(config.startupTimeout()).isEqualTo(SidecarConfig.DEFAULT_STARTUP_TIMEOUT);
        assertThat(config.metricsPort()).isNull();
        assertThat(config.authKey()).isNull();
    }

    @Test
    void shouldBuildWhatAPropertiesFileWithTheSameKeysBuildsWhenEverySetterIsUsed() {
        SidecarConfig built = task().topicPrefix("team.").httpHook(URI.create("http://127.0.0.1:8081"))
                .hookTimeout(Duration.ofSeconds(5)).snapshotTimeout(Duration.ofMinutes(2))
                .startupTimeout(Duration.ofSeconds(30)).kafka("security.protocol", "SSL").metricsPort(9404)
                .metricsBindAddress("0.0.0.0").build();

        SidecarConfig read = SidecarConfig.fromProperties(Map.ofEntries(Map.entry("bootstrap.servers", "kafka:9092"),
                Map.entry("job.id", "orders"), Map.entry("task.id", "sink"), Map.entry("subtask.index", "2"),
                Map.entry("topic.prefix", "team."), Map.entry("hook.kind", "http"),
                Map.entry("hook.url", "http://127.0.0.1:8081"), Map.entry("hook.timeout.ms", "5000"),
                Map.entry("snapshot.timeout.ms", "120000"), Map.entry("startup.timeout.ms", "30000"),
                Map.entry("kafka.security.protocol", "SSL"), Map.entry("metrics.port", "9404"),
                Map.entry("metrics.bind.address", "0.0.0.0")), Map.of());
        assertThat(built).isEqualTo(read);
        assertThat(built.kafkaProperties()).containsExactly(Map.entry("security.protocol", "SSL"));
    }

    @Test
    void shouldBuildAParticipantOrACommandHookWhenAskedTo() {
        SidecarConfig participant = SidecarConfigBuilder.forParticipant("kafka:9092", "orders", "offsets")
                .commandHook("/opt/worker/snapshot --mode 'full copy'").build();

        assertThat(participant.isParticipant()).isTrue();
        assertThat(participant.taskId()).isNull();
        assertThat(participant.subtaskIndex()).isEqualTo(-1);
        assertThat(participant.hookCommand()).containsExactly("/opt/worker/snapshot", "--mode", "full copy");
    }

    @Test
    void shouldSignWithTheKeyGivenInCodeOrReadFromAFileWhenOneIsSet() throws Exception {
        SigningKey key = SigningKey.generate().jobKey("orders");
        Path file = dir.resolve("job.key");
        byte[] secret = SigningKey.generate().mac(new byte[0]);
        Files.writeString(file, Base64.getEncoder().encodeToString(secret));

        assertThat(task().authKey(key).build().authKey()).isEqualTo(key);
        SidecarConfig fromFile = task().authKeyFile(file).build();
        assertThat(fromFile.authKeyFile()).isEqualTo(file);
        assertThat(fromFile.authKey()).isNotNull();
    }

    @Test
    void shouldKeepTheLastValueAndUnsetANullOneWhenAKeyIsSetAgain() {
        SidecarConfig config = task().snapshotTimeout(Duration.ofSeconds(1)).snapshotTimeout(Duration.ofSeconds(3))
                .metricsPort(9404).set(SidecarKeys.METRICS_PORT, null).build();

        assertThat(config.snapshotTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(config.metricsPort()).isNull();
    }

    @Test
    void shouldNameTheSetterWhenARequiredKeyIsMissing() {
        refusing(new SidecarConfigBuilder().jobId("orders").task("sink", 0), "bootstrap.servers")
                .hasMessageContaining("bootstrapServers(...)");
        refusing(new SidecarConfigBuilder().bootstrapServers("kafka:9092").task("sink", 0), "job.id")
                .hasMessageContaining("jobId(...)");
        refusing(new SidecarConfigBuilder().bootstrapServers("kafka:9092").jobId("orders"), "task.id")
                .hasMessageContaining("task(taskId, subtaskIndex) or participant(name)");
    }

    @Test
    void shouldRefuseMalformedValuesNamingTheKeyAndTheBuilder() {
        refusing(task().set("snapshot.timeout.ms", "ten minutes"), "snapshot.timeout.ms")
                .hasMessageContaining("ten minutes").hasMessageContaining(SidecarConfigBuilder.ORIGIN);
        refusing(task().snapshotTimeout(Duration.ofSeconds(-5)), "snapshot.timeout.ms").hasMessageContaining("-5000");
        refusing(task().hookTimeout(Duration.ZERO), "hook.timeout.ms").hasMessageContaining("at least 1");
        refusing(task().metricsPort(70_000), "metrics.port").hasMessageContaining("70000");
        refusing(task().httpHook(URI.create("ftp://worker/")), "hook.url").hasMessageContaining("ftp://worker/");
        refusing(task().task("sink", -1), "subtask.index").hasMessageContaining("-1");
        refusing(task().jobId(" "), "job.id");
        refusing(task().topicPrefix("bad prefix"), "topic.prefix");
        refusing(task().commandHook("run 'unclosed"), "hook.command").hasMessageContaining("cannot be split");
        refusing(task().set("hook.kind", "carrier-pigeon"), "hook.kind").hasMessageContaining("carrier-pigeon");
        refusing(task().authKeyFile(dir.resolve("absent.key")), "auth.key.file").hasMessageContaining("absent.key");
    }

    @Test
    void shouldRefuseContradictoryKeysNamingBothWhenBuilding() {
        refusing(task().participant("offsets"), "task.id").hasMessageContaining("participant");
        refusing(task().httpHook(URI.create("http://127.0.0.1:8081")).commandHook("run"), "hook.url")
                .hasMessageContaining("hook.kind is command");
        refusing(task().authKey(SigningKey.generate()).authKeyFile(dir.resolve("job.key")), "auth.key.file")
                .hasMessageContaining("authKey(...)");
    }

    @Test
    void shouldRefuseAKeyOfNoSidecarAndAnUncountableDurationWhenSet() {
        assertThatThrownBy(() -> task().set("snapshot.timeout", "5000"))
                .isInstanceOf(ConfigProblem.class).hasMessageContaining("'snapshot.timeout' is no key of the sidecar")
                .hasMessageContaining("snapshot.timeout.ms");
        assertThatThrownBy(() -> task().startupTimeout(Duration.ofSeconds(Long.MAX_VALUE)))
                .isInstanceOfSatisfying(ConfigProblem.class, e -> assertThat(e.key()).isEqualTo("startup.timeout.ms"))
                .hasMessageContaining("number of milliseconds");
    }
}
