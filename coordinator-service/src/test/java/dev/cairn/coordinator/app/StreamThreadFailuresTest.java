package dev.cairn.coordinator.app;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StreamThreadFailuresTest {

    private final StreamThreadFailures failures = new StreamThreadFailures();

    @Test
    void shouldTolerateThreeFailuresWithinAMinute() {
        failures.recordFailure(1_000);
        failures.recordFailure(2_000);
        failures.recordFailure(3_000);

        assertThat(failures.isFailingRepeatedly(3_000)).isFalse();
    }

    @Test
    void shouldSayThreadsKeepFailingAfterTheFourthFailureWithinAMinute() {
        failures.recordFailure(1_000);
        failures.recordFailure(20_000);
        failures.recordFailure(40_000);
        failures.recordFailure(60_999);

        assertThat(failures.isFailingRepeatedly(60_999)).isTrue();
        assertThat(failures.recentFailures(60_999)).isEqualTo(4);
    }

    @Test
    void shouldForgetFailuresOlderThanAMinute() {
        failures.recordFailure(1_000);
        failures.recordFailure(20_000);
        failures.recordFailure(40_000);
        failures.recordFailure(61_000);

        assertThat(failures.isFailingRepeatedly(61_000)).isFalse();
        assertThat(failures.recentFailures(61_000)).isEqualTo(3);
        assertThat(failures.isFailingRepeatedly(200_000)).isFalse();
        assertThat(failures.recentFailures(200_000)).isZero();
    }
}
