package dev.cairn.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkerFailuresTest {

    @Test
    void shouldCountTheReasonLinesByKindAndTheRecordsOfExpiredBatchesAsAWorkerPrintsThem() {
        List<String> lines = List.of(
                "=== 2026-12-06T22:45:52Z starting count-0",
                "22:46:22.616 INFO  dev.cairn.sidecar.hook.SnapshotHook - The coordinator discarded the state",
                "java.lang.IllegalStateException: operator count-0: its output failed: org.apache.kafka.common.errors"
                        + ".TimeoutException: Expiring 10 record(s) for p.counts-2:3468 ms has passed",
                "count: operator count-0: its output failed: org.apache.kafka.common.errors.TimeoutException: "
                        + "Expiring 10 record(s) for p.counts-2:3468 ms has passed since batch creation. "
                        + "(IllegalStateException)",
                "source: Expiring 18 record(s) for p.keyed-0:3002 ms has passed since batch creation. The request "
                        + "has not been sent, or no server response has been received yet. (TimeoutException)",
                "count: operator count-1: its output failed: org.apache.kafka.common.errors.TimeoutException: "
                        + "Disconnected from node 2 due to timeout (IllegalStateException)",
                "source: Disconnected from node 1 due to timeout (TimeoutException)",
                "sink: the sidecar stopped consuming control events",
                "count: closing the task failed: java.lang.IllegalStateException: closed");

        WorkerFailures failures = WorkerFailures.of(5, lines);

        assertThat(failures.exits()).isEqualTo(5);
        assertThat(failures.reasons()).isEqualTo(Map.of("expired batch", 2L, "TimeoutException", 2L,
                "the sidecar stopped consuming control events", 1L));
        assertThat(failures.expiredRecords()).isEqualTo(28);
    }
}
