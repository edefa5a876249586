package dev.cairn.kit.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.cairn.kit.align.Channel;
import dev.cairn.sidecar.hook.KeyGroupRange;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An operator subtask's settings: the channels it reads, its key groups, and what it refuses. */
class OperatorTaskConfigTest {

    private static final Map<String, Object> CLIENT = Map.of("bootstrap.servers", "localhost:9092");

    @Test
    void shouldReadOneChannelPerUpstreamSubtaskInEachOfItsPartitions() {
        OperatorTaskConfig config = OperatorTaskConfig.of("count", 1, 2, 3, "keyed", "localhost:9092");

        assertThat(config.channels(List.of(1, 3))).containsExactly(Channel.of("keyed", 1, 0),
                Channel.of("keyed", 1, 1), Channel.of("keyed", 1, 2), Channel.of("keyed", 3, 0),
                Channel.of("keyed", 3, 1), Channel.of("keyed", 3, 2));
        assertThat(config.stateFileName()).isEqualTo("operator-count-1.state");
        assertThat(config.consumerSettings()).containsEntry("enable.auto.commit", false)
                .containsEntry("isolation.level", "read_committed").doesNotContainKey("group.id");
    }

    @Test
    void shouldRefuseSettingsItCannotRunWith() {
        assertRefused("bad/id", 0, 1, 1, CLIENT, "letters, digits");
        assertRefused("count", 2, 2, 1, CLIENT, "within 0 and the parallelism - 1");
        assertRefused("count", 0, 1, 0, CLIENT, "at least one upstream subtask");
        assertRefused("count", 0, 1, 1, Map.of(), "must name bootstrap.servers");
        assertRefused("count", 0, 1, 1, Map.of("bootstrap.servers", "b:9092", "group.id", "g"),
                "sets group.id itself");
    }

    @Test
    void shouldOwnTheKeyGroupsOfItsIndexAmongItsMaxParallelism() {
        OperatorTaskConfig config = OperatorTaskConfig.of("count", 1, 3, 2, "keyed", "localhost:9092");

        assertThat(config.maxParallelism()).isEqualTo(128);
        assertThat(config.keyGroups()).isEqualTo(new KeyGroupRange(43, 85));
        assertThat(config.withMaxParallelism(12).keyGroups()).isEqualTo(new KeyGroupRange(4, 7));
        assertThat(OperatorTaskConfig.of("count", 0, 100, 2, "keyed", "localhost:9092").maxParallelism())
                .isEqualTo(256);
        assertThatIllegalArgumentException().isThrownBy(() -> config.withMaxParallelism(2))
                .withMessageContaining("parallelism 3 exceeds the max parallelism 2");
    }

    @Test
    void shouldKeepAKeyInTheGroupOfItsHashAmongTheMaxParallelism() {
        KeyedState state = new KeyedState(1000);
        byte[] key = "customer-17".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        state.put(key, new byte[] {1});

        int group = KeyGroups.of(key, 1000);
        assertThat(state.group(group)).containsOnlyKeys(new KeyedState.Key(key));
        assertThat(state.versions()).hasSize(1000);
        assertThat(state.versions()[group]).isEqualTo(1);
        assertThat(state.get(key)).containsExactly(1);
    }

    private static void assertRefused(String taskId, int subtask, int parallelism, int upstream,
            Map<String, Object> client, String message) {
        assertThatIllegalArgumentException().isThrownBy(() -> new OperatorTaskConfig(taskId, subtask, parallelism,
                upstream, "keyed", client, Duration.ofMillis(50))).withMessageContaining(message);
    }
}
