package dev.cairn.kit.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.kit.operator.IncrementalSnapshots.Plan;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IncrementalSnapshotsTest {

    private final KeyedState state = new KeyedState();
    private final IncrementalSnapshots snapshots = new IncrementalSnapshots();

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Two keys in two different groups. */
    private static final String A = "alpha";
    private static final String B = findKeyInAnotherGroup(A);

    private static String findKeyInAnotherGroup(String key) {
        int group = KeyGroups.of(bytes(key));
        for (int i = 0; ; i++) {
            if (KeyGroups.of(bytes("k" + i)) != group) {
                return "k" + i;
            }
        }
    }

    private Plan plan(long id, boolean full) {
        return snapshots.plan(id, state, (group, entries) -> KeyGroupCodec.encode("op", 0, group, entries), full);
    }

    /** Writes the plan's groups at made-up locations and reports them. */
    private void write(Plan plan) {
        List<KeyGroupObject> objects = new ArrayList<>(plan.reused());
        plan.toWrite().forEach((group, encoded) -> objects.add(new KeyGroupObject(group, "mem://g" + group + "/c"
                + plan.checkpointId(), encoded.length)));
        snapshots.written(plan, objects);
    }

    @Test
    void shouldWriteEveryNonEmptyGroupWhenNoCheckpointIsConfirmed() {
        state.put(bytes(A), bytes("1"));
        state.put(bytes(B), bytes("2"));

        Plan plan = plan(1, false);

        assertThat(plan.toWrite()).containsOnlyKeys(KeyGroups.of(bytes(A)), KeyGroups.of(bytes(B)));
        assertThat(plan.reused()).isEmpty();
    }

    @Test
    void shouldReferToTheConfirmedObjectOfAnUnchangedGroupAndWriteTheChangedOne() {
        state.put(bytes(A), bytes("1"));
        state.put(bytes(B), bytes("2"));
        write(plan(1, false));
        snapshots.completed(1);
        state.put(bytes(A), bytes("3"));

        Plan plan = plan(2, false);

        assertThat(plan.toWrite()).containsOnlyKeys(KeyGroups.of(bytes(A)));
        assertThat(plan.reused()).extracting(KeyGroupObject::location)
                .containsExactly("mem://g" + KeyGroups.of(bytes(B))
                + "/c1");
    }

    @Test
    void shouldNeverReferToAnObjectOfACheckpointThatWasNotConfirmed() {
        state.put(bytes(A), bytes("1"));
        write(plan(1, false));
        snapshots.aborted(1);
        write(plan(2, false));

        Plan third = plan(3, false);

        assertThat(third.reused()).isEmpty();
        assertThat(third.toWrite()).containsOnlyKeys(KeyGroups.of(bytes(A)));
    }

    @Test
    void shouldWriteEveryGroupForAFullSnapshot() {
        state.put(bytes(A), bytes("1"));
        write(plan(1, false));
        snapshots.completed(1);

        Plan full = plan(2, true);

        assertThat(full.reused()).isEmpty();
        assertThat(full.toWrite()).containsOnlyKeys(KeyGroups.of(bytes(A)));
    }

    @Test
    void shouldBuildOnTheRestoredCheckpoint() {
        state.replaceWith(Map.of(new KeyedState.Key(bytes(A)), bytes("1")));
        snapshots.restored(state.versions(), List.of(new KeyGroupObject(KeyGroups.of(bytes(A)), "mem://restored", 9)));

        Plan plan = plan(8, false);

        assertThat(plan.toWrite()).isEmpty();
        assertThat(plan.reused()).extracting(KeyGroupObject::location).containsExactly("mem://restored");
    }
}
