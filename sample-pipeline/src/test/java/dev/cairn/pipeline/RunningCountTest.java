package dev.cairn.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.kit.operator.KeyedState;
import dev.cairn.kit.task.SourceFunction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunningCountTest {

    private final KeyedState state = new KeyedState();
    private final RunningCount count = new RunningCount();

    private String apply(String key) {
        List<SourceFunction.Output> out = count.apply(key.getBytes(StandardCharsets.UTF_8), new byte[0], state);
        assertThat(out).hasSize(1);
        assertThat(new String(out.get(0).key(), StandardCharsets.UTF_8)).isEqualTo(key);
        return new String(out.get(0).value(), StandardCharsets.US_ASCII);
    }

    @Test
    void shouldEmitEachKeysNewCountAsDecimalText() {
        assertThat(List.of(apply("a"), apply("b"), apply("a"), apply("a"))).containsExactly("1", "1", "2", "3");
        assertThat(state.size()).isEqualTo(2);
    }

    @Test
    void shouldGoOnFromTheCountInARestoredState() {
        state.put("a".getBytes(StandardCharsets.UTF_8), "41".getBytes(StandardCharsets.US_ASCII));

        assertThat(apply("a")).isEqualTo("42");
    }
}
