package dev.cairn.metrics.logging;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

class JobLogContextTest {

    @AfterEach
    void clear() {
        MDC.clear();
    }

    @Test
    void shouldNameTheJobInsideItsScopeAndNoneAfter() {
        try (JobLogContext.Scope job = JobLogContext.of("orders")) {
            assertThat(MDC.get(JobLogContext.KEY)).isEqualTo("orders");
        }
        assertThat(MDC.get(JobLogContext.KEY)).isNull();
    }

    @Test
    void shouldGiveTheThreadBackItsJobWhenANestedScopeEnds() {
        JobLogContext.forThread("orders");
        try (JobLogContext.Scope job = JobLogContext.of("billing")) {
            assertThat(MDC.get(JobLogContext.KEY)).isEqualTo("billing");
        }
        assertThat(MDC.get(JobLogContext.KEY)).isEqualTo("orders");
    }
}
