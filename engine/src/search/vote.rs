//! Lazy SMP's move choice: every thread that completed an iteration votes for its best
//! move, with a weight that grows with the depth it reached and with how well its move
//! scored. A move that several threads found at good depth beats one the main thread
//! alone prefers after a shallower search.

use shakmaty::Move;

use super::state::SearchResult;
use crate::params::VOTE_SCORE_OFFSET;
use crate::score::is_decisive;

/// Index into `results` (the main thread's first) of the thread whose move to play.
pub(crate) fn vote(results: &[SearchResult]) -> usize {
    let voters = || {
        results
            .iter()
            .enumerate()
            .filter(|(_, r)| r.best.is_some() && r.depth > 0)
    };
    let Some(lowest) = voters().map(|(_, r)| r.score).min() else {
        return 0;
    };
    let weight =
        |r: &SearchResult| i64::from(r.score - lowest + VOTE_SCORE_OFFSET()) * i64::from(r.depth);
    let mut tally: Vec<(Move, i64)> = Vec::new();
    for (_, r) in voters() {
        let Some(mv) = r.best else { continue };
        match tally.iter_mut().find(|(m, _)| *m == mv) {
            Some((_, votes)) => *votes += weight(r),
            None => tally.push((mv, weight(r))),
        }
    }
    let votes = |r: &SearchResult| {
        tally
            .iter()
            .find(|(m, _)| Some(m) == r.best.as_ref())
            .map_or(0, |(_, v)| *v)
    };

    let mut chosen = 0;
    for (i, r) in voters() {
        let best = &results[chosen];
        let better = if best.best.is_none() || best.depth == 0 {
            true
        } else if is_win(best.score) {
            // A proven win outranks any vote; only a faster one replaces it.
            r.score > best.score
        } else if is_win(r.score) {
            true
        } else {
            (votes(r), weight(r)) > (votes(best), weight(best))
        };
        if better {
            chosen = i;
        }
    }
    chosen
}

fn is_win(score: i32) -> bool {
    score > 0 && is_decisive(score)
}

#[cfg(test)]
mod tests {
    use shakmaty::{Role, Square};

    use super::*;
    use crate::score::{MATE, mated_in};

    fn result(to: Square, score: i32, depth: i32) -> SearchResult {
        SearchResult {
            best: Some(Move::Normal {
                role: Role::Pawn,
                from: Square::E2,
                capture: None,
                to,
                promotion: None,
            }),
            score,
            depth,
            ..SearchResult::default()
        }
    }

    #[test]
    fn two_helpers_that_agree_outvote_the_main_thread() {
        let results = [
            result(Square::E4, 30, 12),
            result(Square::E3, 20, 12),
            result(Square::E3, 20, 12),
        ];
        // e4: (30 − 20 + 14) · 12 = 288; e3: 2 · 14 · 12 = 336.
        assert_eq!(vote(&results), 1);
    }

    #[test]
    fn a_deeper_better_main_thread_keeps_its_move() {
        let results = [result(Square::E4, 40, 14), result(Square::E3, 20, 12)];
        assert_eq!(vote(&results), 0);
    }

    #[test]
    fn a_proven_win_outranks_the_vote_and_the_fastest_one_is_played() {
        let results = [
            result(Square::E4, 50, 20),
            result(Square::E3, MATE - 9, 10),
            result(Square::E3, MATE - 7, 8),
            result(Square::E4, 50, 20),
        ];
        assert_eq!(vote(&results), 2);
    }

    #[test]
    fn threads_without_a_completed_iteration_do_not_vote() {
        let results = [result(Square::E4, 10, 6), result(Square::E3, 900, 0)];
        assert_eq!(vote(&results), 0);
        let lost = [
            result(Square::E4, mated_in(4), 6),
            result(Square::E3, -50, 6),
        ];
        assert_eq!(vote(&lost), 1);
    }
}
