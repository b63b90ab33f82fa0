package dev.ourios.chaos;

/**
 * What one read of one partition showed, against the ledger.
 *
 * @param rows       rows the read returned
 * @param torn       late files seen partly (some of their rows, not all): a torn read
 * @param lost       rows that had to be there (acknowledged before the read began) and were not
 * @param duplicated rows returned more than once
 * @param unknown    rows the ledger never wrote into this partition (another partition's, or invented)
 */
record Verdict(long rows, long torn, long lost, long duplicated, long unknown) {
    boolean clean() {
        return torn == 0 && lost == 0 && duplicated == 0 && unknown == 0;
    }

    @Override
    public String toString() {
        return rows + " rows, torn files " + torn + ", lost " + lost + ", duplicated " + duplicated + ", unknown "
                + unknown;
    }
}
