"""paddle.dataset.movielens: the MovieLens 1M ratings, as 1.x gave them
from `ml-1m.zip` (`ml-1m/movies.dat`, `users.dat`, `ratings.dat`, latin-1
text with `::` between fields).

Each sample is `[user_id, gender (0 male, 1 female), age index in
age_table, job_id, movie_id, [category ids], [title word ids], [score]]`,
the score `rating * 2 - 5.0`. `train()` and `test()` split the ratings
as 1.x did: `numpy.random.seed(rand_seed)` when reading starts, then one
`numpy.random.random()` a rating, the rating going to test when it is
below `test_ratio`. The category and title-word ids number a Python set's
elements in iteration order, as 1.x's did (so they differ between runs
of CPython, whose str hashes are randomized).
"""
import functools
import re
import zipfile

import numpy as np

from . import common

__all__ = ["train", "test", "get_movie_title_dict", "max_movie_id", "max_user_id",
           "age_table", "movie_categories", "max_job_id", "user_info", "movie_info",
           "convert"]

age_table = [1, 18, 25, 35, 45, 50, 56]

URL = "http://files.grouplens.org/datasets/movielens/ml-1m.zip"
MD5 = "c4d9eecfca2ab87c1945afe126590906"


class MovieInfo(object):
    """A movie: its id, categories and title (without the year)."""

    def __init__(self, index, categories, title):
        self.index = int(index)
        self.categories = categories
        self.title = title

    def value(self):
        """[id, [category ids], [title word ids]]."""
        return [self.index, [CATEGORIES_DICT[c] for c in self.categories],
                [MOVIE_TITLE_DICT[w.lower()] for w in self.title.split()]]

    def __str__(self):
        return "<MovieInfo id(%d), title(%s), categories(%s)>" % (
            self.index, self.title, self.categories)

    def __repr__(self):
        return self.__str__()


class UserInfo(object):
    """A user: id, gender, age (an index in age_table) and job id."""

    def __init__(self, index, gender, age, job_id):
        self.index = int(index)
        self.is_male = gender == "M"
        self.age = age_table.index(int(age))
        self.job_id = int(job_id)

    def value(self):
        """[id, 0 if male else 1, age index, job id]."""
        return [self.index, 0 if self.is_male else 1, self.age, self.job_id]

    def __str__(self):
        return "<UserInfo id(%d), gender(%s), age(%d), job(%d)>" % (
            self.index, "M" if self.is_male else "F", age_table[self.age], self.job_id)

    def __repr__(self):
        return str(self)


MOVIE_INFO = None
MOVIE_TITLE_DICT = None
CATEGORIES_DICT = None
USER_INFO = None

_TITLE = re.compile(r"^(.*)\((\d+)\)$")


def _lines(package, name):
    """The member's lines, as iterating over `package.open(name)` gives
    them, decoded. The member is read whole: RustPython's
    `zlib.decompressobj().decompress(data, max_length)` drops the rest of
    the stream once `max_length` cuts it, and zipfile reads a deflated
    member that way when it is iterated."""
    lines = package.read(name).split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    for line in lines:
        yield line.decode("latin")


def __initialize_meta_info__():
    """Reads movies.dat and users.dat once per process; returns the zip's
    path."""
    global MOVIE_INFO, MOVIE_TITLE_DICT, CATEGORIES_DICT, USER_INFO
    fn = common.download(URL, "movielens", MD5)
    if MOVIE_INFO is None:
        with zipfile.ZipFile(file=fn) as package:
            # 1.x filled these inside a loop over the zip's members.
            if not package.infolist():
                return fn
            movies = {}
            title_words = set()
            categories_seen = set()
            for line in _lines(package, "ml-1m/movies.dat"):
                movie_id, title, categories = line.strip().split("::")
                categories = categories.split("|")
                categories_seen.update(categories)
                title = _TITLE.match(title).group(1)
                movies[int(movie_id)] = MovieInfo(index=movie_id, categories=categories,
                                                  title=title)
                title_words.update(w.lower() for w in title.split())
            users = {}
            for line in _lines(package, "ml-1m/users.dat"):
                uid, gender, age, job, _ = line.strip().split("::")
                users[int(uid)] = UserInfo(index=uid, gender=gender, age=age, job_id=job)
        MOVIE_INFO = movies
        MOVIE_TITLE_DICT = {w: i for i, w in enumerate(title_words)}
        CATEGORIES_DICT = {c: i for i, c in enumerate(categories_seen)}
        USER_INFO = users
    return fn


def __reader__(rand_seed=0, test_ratio=0.1, is_test=False):
    fn = __initialize_meta_info__()
    np.random.seed(rand_seed)
    with zipfile.ZipFile(file=fn) as package:
        for line in _lines(package, "ml-1m/ratings.dat"):
            if (np.random.random() < test_ratio) != is_test:
                continue
            uid, mov_id, rating, _ = line.strip().split("::")
            uid, mov_id, rating = int(uid), int(mov_id), float(rating) * 2 - 5.0
            mov = MOVIE_INFO[mov_id]
            usr = USER_INFO[uid]
            yield usr.value() + mov.value() + [[rating]]


def __reader_creator__(**kwargs):
    return lambda: __reader__(**kwargs)


train = functools.partial(__reader_creator__, is_test=False)
test = functools.partial(__reader_creator__, is_test=True)


def get_movie_title_dict():
    """Title word (lower case) -> id."""
    __initialize_meta_info__()
    return MOVIE_TITLE_DICT


def __max_index_info__(a, b):
    return a if a.index > b.index else b


def max_movie_id():
    """The largest movie id."""
    __initialize_meta_info__()
    return functools.reduce(__max_index_info__, list(MOVIE_INFO.values())).index


def max_user_id():
    """The largest user id."""
    __initialize_meta_info__()
    return functools.reduce(__max_index_info__, list(USER_INFO.values())).index


def __max_job_id_impl__(a, b):
    return a if a.job_id > b.job_id else b


def max_job_id():
    """The largest job id."""
    __initialize_meta_info__()
    return functools.reduce(__max_job_id_impl__, list(USER_INFO.values())).job_id


def movie_categories():
    """Category -> id."""
    __initialize_meta_info__()
    return CATEGORIES_DICT


def user_info():
    """User id -> UserInfo."""
    __initialize_meta_info__()
    return USER_INFO


def movie_info():
    """Movie id -> MovieInfo."""
    __initialize_meta_info__()
    return MOVIE_INFO


def fetch():
    common.download(URL, "movielens", MD5)


def convert(path):
    """1.x wrote the train and test sets as RecordIO files."""
    common.convert(path, train(), 1000, "movielens_train")
    common.convert(path, test(), 1000, "movielens_test")
