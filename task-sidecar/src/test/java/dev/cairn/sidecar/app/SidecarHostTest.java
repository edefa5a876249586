package dev.cairn.sidecar.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.config.ConfigProblem;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The {@code host} key: the host a task sidecar's {@code TaskStarted} names. Unset, the sidecar names the machine's
 * host when it starts; a value the coordinator would refuse is refused at start, naming the key and its source.
 */
class SidecarHostTest {

    private static Map<String, String> task(String host) {
        Map<String, String> props = new HashMap<>(Map.of("bootstrap.servers", "kafka:9092", "job.id", "orders",
                "task.id", "sink", "subtask.index", "2"));
        if (host != null) {
            props.put("host", host);
        }
        return props;
    }

    @Test
    void shouldPassTheConfiguredHostToTheKafkaSideFromTheFileOrTheEnvironment() {
        SidecarConfig fromFile = SidecarConfig.fromProperties(task("worker-3.pool-a"), Map.of());
        SidecarConfig fromEnvironment = SidecarConfig.fromProperties(task(null),
                Map.of("CAIRN_SIDECAR_HOST", "node-12"));

        assertThat(fromFile.host()).isEqualTo("worker-3.pool-a");
        assertThat(fromFile.runtimeSettings().host()).isEqualTo("worker-3.pool-a");
        assertThat(fromEnvironment.runtimeSettings().host()).isEqualTo("node-12");
        assertThat(fromFile.withTopics(fromFile.topics()).host()).as("a copy keeps it").isEqualTo("worker-3.pool-a");
    }

    @Test
    void shouldLeaveTheHostToTheMachineWhenTheKeyIsUnset() {
        assertThat(SidecarConfig.fromProperties(task(null), Map.of()).runtimeSettings().host()).isNull();
        assertThat(SidecarConfig.forTask("kafka:9092", "orders", "sink", 0).host()).isNull();
    }

    @Test
    void shouldRefuseAHostWithWhiteSpaceOrControlCharactersOrOverTheCoordinatorsLimitNamingTheKey() {
        assertThatThrownBy(() -> SidecarConfig.fromProperties(task("my host"), Map.of()))
                .isInstanceOfSatisfying(ConfigProblem.class, e -> assertThat(e.key()).isEqualTo("host"))
                .hasMessage("host must be a host name without white space or control characters, at most 256 "
                        + "characters; it contains white space or a control character: 'my host' (the properties)");
        assertThatThrownBy(() -> SidecarConfig.fromProperties(task(null), Map.of("CAIRN_SIDECAR_HOST", "a\u0007b")))
                .isInstanceOf(ConfigProblem.class).hasMessageContaining("'a?b' (environment variable "
                        + "CAIRN_SIDECAR_HOST)");
        assertThatThrownBy(() -> SidecarConfig.fromProperties(task("h".repeat(257)), Map.of()))
                .isInstanceOf(ConfigProblem.class).hasMessageContaining("it is 257 characters long, more than 256");
    }
}
