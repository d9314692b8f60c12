// The yardstick beside cubed's solver: min2phase (github.com/cs0x7f/min2phase, built from its own
// sources by run.sh) solving the same cubes at the same time budgets, keeping the shortest
// solution found in time, as cubed's anytime search does. One thread, as min2phase is.
//
// Input: one cube per line on stdin, 54 facelets in U R F D L B order (any symbols: the
// centres say which is which face). Arguments: budgets in milliseconds. Prints, per budget,
// the cubes, the average length and the longest.

import cs.min2phase.Search;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;

public class Yardstick {
    /** Phase-2 probes per call while time remains: small enough to stop near the deadline. */
    static final long PROBES_PER_CALL = 20;

    public static void main(String[] args) throws Exception {
        List<String> cubes = new ArrayList<>();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line; (line = in.readLine()) != null; ) {
            line = line.trim();
            if (!line.isEmpty() && !line.startsWith("#")) {
                cubes.add(asFaceLetters(line));
            }
        }
        Search.init();
        // Warm the JIT on a few cubes first, outside the figures.
        for (int i = 0; i < Math.min(20, cubes.size()); i++) {
            shortestWithin(cubes.get(i), 10);
        }
        System.out.println("min2phase, one thread, " + cubes.size() + " cubes");
        for (String budget : args) {
            long ms = Long.parseLong(budget);
            long total = 0;
            int longest = 0;
            for (String cube : cubes) {
                int length = shortestWithin(cube, ms);
                total += length;
                longest = Math.max(longest, length);
            }
            System.out.printf("%6d ms %5d cubes  average %.3f  max %d%n", ms, cubes.size(),
                    (double) total / cubes.size(), longest);
        }
    }

    /** The length of the shortest solution found within `ms` (the first one however long it takes). */
    static int shortestWithin(String facelets, long ms) {
        long deadline = System.nanoTime() + ms * 1_000_000L;
        Search search = new Search();
        String found = search.solution(facelets, 30, Long.MAX_VALUE, 0, 0);
        if (found.startsWith("Error")) {
            throw new IllegalArgumentException(found + " for " + facelets);
        }
        int best = turns(found);
        while (System.nanoTime() < deadline && best > 0) {
            String shorter = search.next(PROBES_PER_CALL, 0, 0);
            if (shorter.startsWith("Error 7")) {
                break; // no shorter solution exists
            }
            if (!shorter.startsWith("Error")) {
                best = turns(shorter);
            }
        }
        return best;
    }

    static int turns(String solution) {
        String trimmed = solution.trim();
        return trimmed.isEmpty() ? 0 : trimmed.split("\\s+").length;
    }

    /** The facelets with each sticker named by the face whose centre has its symbol. */
    static String asFaceLetters(String cube) {
        if (cube.length() != 54) {
            throw new IllegalArgumentException("a cube is 54 facelets, not " + cube.length() + ": " + cube);
        }
        String faces = "URFDLB";
        StringBuilder out = new StringBuilder(54);
        for (char c : cube.toCharArray()) {
            int face = -1;
            for (int f = 0; f < 6; f++) {
                if (cube.charAt(9 * f + 4) == c) {
                    face = f;
                }
            }
            if (face < 0) {
                throw new IllegalArgumentException("symbol " + c + " is no centre's: " + cube);
            }
            out.append(faces.charAt(face));
        }
        return out.toString();
    }
}
