package dev.cairn.metrics.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RepeatedWarningsTest {

    private final AtomicLong now = new AtomicLong(1_000_000);
    private final List<String> summaries = new ArrayList<>();
    private final RepeatedWarnings warnings = new RepeatedWarnings(3, Duration.ofMinutes(1), 2, now::get);

    private boolean admit(String key) {
        return warnings.admit(key, (of, count, window) -> summaries.add(of + " " + count + " " + window));
    }

    @Test
    void shouldLogTheFirstOccurrencesOfAReasonAndCountTheRestWhenTheyFlood() {
        List<Boolean> logged = IntStream.range(0, 1_000).mapToObj(i -> admit("BAD_SIGNATURE")).toList();

        assertThat(logged.subList(0, 3)).containsOnly(true);
        assertThat(logged.subList(3, 1_000)).containsOnly(false);
        assertThat(summaries).as("the window has not ended").isEmpty();
    }

    @Test
    void shouldSumUpTheSuppressedOnesOnceTheWindowEndedAndLogAgain() {
        IntStream.range(0, 10).forEach(i -> admit("BAD_SIGNATURE"));
        now.addAndGet(Duration.ofMinutes(1).toMillis());

        assertThat(admit("BAD_SIGNATURE")).as("a new window logs again").isTrue();
        assertThat(summaries).containsExactly("BAD_SIGNATURE 7 PT1M");
        now.addAndGet(Duration.ofMinutes(1).toMillis());
        assertThat(admit("BAD_SIGNATURE")).isTrue();
        assertThat(summaries).as("nothing was suppressed in the second window").hasSize(1);
    }

    @Test
    void shouldSumUpAFloodThatStoppedWhenFlushedAfterItsWindow() {
        IntStream.range(0, 5).forEach(i -> admit("TRUNCATED"));
        warnings.flush((of, count, window) -> summaries.add(of + " " + count));
        assertThat(summaries).as("the window has not ended").isEmpty();

        now.addAndGet(Duration.ofMinutes(1).toMillis());
        warnings.flush((of, count, window) -> summaries.add(of + " " + count));
        warnings.flush((of, count, window) -> summaries.add(of + " " + count));

        assertThat(summaries).containsExactly("TRUNCATED 2");
    }

    @Test
    void shouldLimitEachReasonOnItsOwn() {
        IntStream.range(0, 5).forEach(i -> admit("BAD_SIGNATURE"));

        assertThat(admit("NOT_SINGLE_OBJECT_ENCODED")).isTrue();
    }

    @Test
    void shouldShareOneKeyWhenThereAreMoreReasonsThanRoomForThem() {
        admit("A");
        admit("B");
        IntStream.range(0, 3).forEach(i -> admit("C" + i));

        assertThat(admit("D")).as("C0..C2 used the shared key's three lines").isFalse();
        now.addAndGet(Duration.ofMinutes(1).toMillis());
        admit("A");
        assertThat(summaries).containsExactly(RepeatedWarnings.OTHER + " 1 PT1M");
    }

    @Test
    void shouldRefuseALimitThatLogsNothingOrAWindowOfNoTime() {
        assertThatThrownBy(() -> new RepeatedWarnings(0, Duration.ofMinutes(1), 1, now::get))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("firstPerKey >= 1");
        assertThatThrownBy(() -> new RepeatedWarnings(1, Duration.ZERO, 1, now::get))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive window");
    }
}
