package dev.cairn.core.decide;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SINK;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.attempt;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.decline;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.tick;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.events.Command;
import dev.cairn.core.testing.Events;
import dev.cairn.core.testing.Scenario;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.DiscardedObject;
import dev.cairn.events.SharedState;
import dev.cairn.events.StateDiscarded;
import dev.cairn.events.StateHandle;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.apache.avro.specific.SpecificRecord;

/**
 * The reference counting of shared state against a model: random rounds of incremental checkpoints (each subtask
 * reuses some of the shared objects of its last completed checkpoint and writes new ones), completed or declined
 * part-way, with 1 to 3 retained checkpoints. After every round: no object a retained checkpoint refers to was ever
 * discarded, every object (shared or a subtask's own) that nothing kept refers to any more was discarded, and none
 * twice; the coordinator's count of each shared object is the model's.
 */
class SharedStatePropertyTest {

    /** The three acknowledging subtasks of the fixture job, in the order they ack. */
    private static final List<String[]> SUBTASKS = List.of(new String[] {SOURCE, "0"}, new String[] {SOURCE, "1"},
            new String[] {SINK, "0"});

    /** What one subtask does in a round: how many new objects it writes, and which of its last ones it reuses. */
    record Snapshot(int created, int reuseMask) {
    }

    /** One checkpoint: the subtasks' snapshots, and the subtask that declines it (3: none, it completes). */
    record Round(List<Snapshot> snapshots, int decliner) {
    }

    @Provide
    Arbitrary<List<Round>> rounds() {
        Arbitrary<Snapshot> snapshot = Combinators.combine(Arbitraries.integers().between(0, 2),
                Arbitraries.integers().between(0, 15)).as(Snapshot::new);
        Arbitrary<Round> round = Combinators.combine(snapshot.list().ofSize(3),
                Arbitraries.frequency(net.jqwik.api.Tuple.of(3, 3), net.jqwik.api.Tuple.of(1, 0),
                        net.jqwik.api.Tuple.of(1, 1), net.jqwik.api.Tuple.of(1, 2))).as(Round::new);
        return round.list().ofMinSize(1).ofMaxSize(25);
    }

    @Property(tries = 200)
    void shouldDiscardEachObjectOnceWhenNothingKeptRefersToItAndNeverBefore(@ForAll("rounds") List<Round> rounds,
            @ForAll @IntRange(min = 1, max = 3) int retained) {
        Scenario scenario = Scenario.runningJob(spec(config().setRetained(retained).setTolerableFailures(1_000)),
                1000);
        Model model = new Model(retained);
        long id = 0;
        for (Round round : rounds) {
            id++;
            long at = id * 1000;
            scenario.and(tick(), at);
            Map<String, Set<String>> referencedBy = new LinkedHashMap<>();
            for (int s = 0; s < SUBTASKS.size(); s++) {
                if (s == round.decliner()) {
                    scenario.and(decline(id, SUBTASKS.get(s)[0], Integer.parseInt(SUBTASKS.get(s)[1])), at + 100);
                    break;
                }
                List<SharedState> shared = model.snapshot(id, s, round.snapshots().get(s));
                String own = "mem://own/" + id + "/" + s;
                referencedBy.put(own, new HashSet<>());
                shared.forEach(o -> referencedBy.get(own).add(o.getLocation()));
                scenario.and(ack(id, s, own, shared), at + 10 + s);
            }
            if (round.decliner() == 3) {
                model.completed(id, referencedBy);
            } else {
                model.aborted(referencedBy);
            }
            model.check(scenario);
        }
    }

    private static Command.Acknowledge ack(long id, int s, String own, List<SharedState> shared) {
        String task = SUBTASKS.get(s)[0];
        int subtask = Integer.parseInt(SUBTASKS.get(s)[1]);
        CheckpointAcknowledged ack = Events.ack(JOB, id, task, subtask, attempt(task, subtask, 1))
                .setStateHandle(StateHandle.newBuilder().setLocation(own).setSizeBytes(1).setShared(shared).build())
                .setTimestampMs(0).build();
        return new Command.Acknowledge(ack);
    }

    /** What a correct coordinator keeps and discards. */
    private static final class Model {
        private final int retained;
        /** Each subtask's shared objects of its last completed checkpoint: what it may reuse. */
        private final Map<Integer, List<String>> reusable = new HashMap<>();
        /** The retained checkpoints, oldest first, with their own objects and the shared ones they refer to. */
        private final Deque<Map<String, Set<String>>> kept = new ArrayDeque<>();
        private final Set<String> everWritten = new HashSet<>();

        Model(int retained) {
            this.retained = retained;
        }

        List<SharedState> snapshot(long id, int s, Snapshot snapshot) {
            List<SharedState> shared = new ArrayList<>();
            List<String> last = reusable.getOrDefault(s, List.of());
            for (int i = 0; i < last.size(); i++) {
                if ((snapshot.reuseMask() & (1 << (i % 4))) != 0) {
                    shared.add(SharedState.newBuilder().setLocation(last.get(i)).setSizeBytes(1).setReused(true)
                            .build());
                }
            }
            for (int j = 0; j < snapshot.created(); j++) {
                String location = "mem://shared/" + id + "/" + s + "/" + j;
                everWritten.add(location);
                shared.add(SharedState.newBuilder().setLocation(location).setSizeBytes(1).setReused(false).build());
            }
            return shared;
        }

        void completed(long id, Map<String, Set<String>> referencedBy) {
            everWritten.addAll(referencedBy.keySet());
            kept.addLast(referencedBy);
            while (kept.size() > retained) {
                kept.removeFirst();
            }
            int s = 0;
            for (Set<String> shared : referencedBy.values()) {
                reusable.put(s++, List.copyOf(shared));
            }
        }

        void aborted(Map<String, Set<String>> referencedBy) {
            everWritten.addAll(referencedBy.keySet());
        }

        void check(Scenario scenario) {
            Set<String> referenced = new HashSet<>();
            Map<String, Integer> counts = new HashMap<>();
            for (Map<String, Set<String>> checkpoint : kept) {
                referenced.addAll(checkpoint.keySet());
                checkpoint.values().forEach(shared -> shared.forEach(o -> {
                    referenced.add(o);
                    counts.merge(o, 1, Integer::sum);
                }));
            }
            List<String> discarded = new ArrayList<>();
            for (SpecificRecord event : scenario.journal()) {
                if (event instanceof StateDiscarded d) {
                    d.getObjects().stream().map(DiscardedObject::getLocation).forEach(discarded::add);
                }
            }
            assertThat(discarded).as("discarded at most once").doesNotHaveDuplicates();
            assertThat(discarded).as("never an object a retained checkpoint refers to").noneMatch(referenced::contains);
            Set<String> unreferenced = new HashSet<>(everWritten);
            unreferenced.removeAll(referenced);
            assertThat(discarded).as("every object nothing kept refers to").containsAll(unreferenced);
            counts.forEach((location, count) -> assertThat(scenario.state().sharedState(JOB, location))
                    .as("the count of " + location).hasValueSatisfying(e -> assertThat(e.getReferences())
                            .isEqualTo(count)));
            everWritten.stream().filter(o -> o.startsWith("mem://shared/") && !counts.containsKey(o))
                    .forEach(o -> assertThat(scenario.state().sharedState(JOB, o)).as("no entry for " + o).isEmpty());
        }
    }
}
