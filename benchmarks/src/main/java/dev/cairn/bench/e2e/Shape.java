package dev.cairn.bench.e2e;

/**
 * A throughput shape: {@code jobs} jobs of {@code subtasks} subtasks each, written {@code JOBSxSUBTASKS}
 * (e.g. {@code 100x100}).
 *
 * @param jobs how many jobs checkpoint at the same time
 * @param subtasks subtasks (acks per checkpoint) of each job
 */
public record Shape(int jobs, int subtasks) {

    public Shape {
        if (jobs < 1 || subtasks < 1) {
            throw new IllegalArgumentException("a shape needs at least one job of one subtask, was " + jobs + "x"
                    + subtasks);
        }
    }

    /** Parses {@code JOBSxSUBTASKS}, e.g. {@code 1x10000}. */
    public static Shape parse(String text) {
        String[] parts = text.trim().toLowerCase(java.util.Locale.ROOT).split("x");
        if (parts.length != 2) {
            throw new IllegalArgumentException("a shape is JOBSxSUBTASKS, e.g. 100x100; was " + text);
        }
        return new Shape(Integer.parseInt(parts[0].replace("_", "")), Integer.parseInt(parts[1].replace("_", "")));
    }

    /** Acks of one checkpoint round: every job's subtasks. */
    public long acksPerRound() {
        return (long) jobs * subtasks;
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "%,d x %,d", jobs, subtasks);
    }
}
