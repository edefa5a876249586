package dev.cairn.core.decide;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.RestorePart;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.SubtaskState;
import dev.cairn.events.serde.CairnSerdes;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RestorePartsTest {

    private static final int MAX_RECORD_BYTES = 1_000_000;

    @Test
    void shouldFitTheLargestStatesTheLimitsAllowInOneRecordPerPart() {
        InputLimits limits = InputLimits.DEFAULTS;
        int perPart = RestoreParts.statesPerPart(limits, MAX_RECORD_BYTES);
        String longestId = "\u00e9".repeat(limits.maxIdLength());
        String longestLocation = "\u4e2d".repeat(limits.maxLocationLength());
        List<CheckpointAcknowledged> acks = IntStream.range(0, perPart + 1)
                .mapToObj(i -> ack(longestId, i, longestId, longestLocation)).toList();

        List<RestorePart> parts = RestoreParts.split(longestId, 7, acks, perPart);

        assertThat(parts).hasSize(2);
        for (RestorePart part : parts) {
            assertThat(CairnSerdes.restoreParts().serialize("t", part).length).isLessThan(MAX_RECORD_BYTES);
        }
    }

    @Test
    void shouldCutStatesIntoNumberedPartsInTheAcksOrder() {
        List<CheckpointAcknowledged> acks = IntStream.range(0, 5).mapToObj(i -> ack("map", i, "a" + i, "file:///" + i))
                .toList();

        List<RestorePart> parts = RestoreParts.split("job", 3, acks, 2);

        assertThat(parts).extracting(RestorePart::getPart).containsExactly(0, 1, 2);
        assertThat(parts).allSatisfy(p -> {
            assertThat(p.getParts()).isEqualTo(3);
            assertThat(p.getCheckpointId()).isEqualTo(3);
        });
        assertThat(parts.stream().flatMap(p -> p.getStates().stream()).map(SubtaskState::getSubtaskIndex))
                .containsExactly(0, 1, 2, 3, 4);
        assertThat(RestoreParts.partCount(5, 2)).isEqualTo(3);
        assertThat(RestoreParts.partCount(0, 2)).isZero();
    }

    private static CheckpointAcknowledged ack(String taskId, int subtask, String attemptId, String location) {
        return Events.ack("job", 3, taskId, subtask, attemptId).setStateHandle(Events.state(location, 100L))
                .setMetrics(SubtaskMetrics.newBuilder().build()).setTimestampMs(0).build();
    }
}
