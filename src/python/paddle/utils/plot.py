"""1.x's `paddle.utils.plot`: the book's notebooks drew their loss curves
with `Ploter`, through matplotlib and IPython. As in 1.x, a script turned
from a notebook runs it with `DISABLE_PLOT=True` in the environment (then
nothing is drawn or imported); otherwise it needs matplotlib, which
fluidc does not have, and `Ploter()` raises the ImportError 1.x raised
without it."""
import os


class PlotData(object):
    """The points of one curve."""

    def __init__(self):
        self.step = []
        self.value = []

    def append(self, step, value):
        self.step.append(step)
        self.value.append(value)

    def reset(self):
        self.step = []
        self.value = []


class Ploter(object):
    """Curves named by `args`, drawn together by `plot`."""

    def __init__(self, *args):
        self.__args__ = args
        self.__plot_data__ = {}
        for title in args:
            self.__plot_data__[title] = PlotData()
        self.__disable_plot__ = os.environ.get("DISABLE_PLOT")
        if not self.__plot_is_disabled__():
            import matplotlib.pyplot as plt
            from IPython import display
            self.plt = plt
            self.display = display

    def __plot_is_disabled__(self):
        return self.__disable_plot__ == "True"

    def append(self, title, step, value):
        """Adds the point (`step`, `value`) to curve `title`."""
        assert isinstance(title, str)
        assert title in self.__plot_data__
        data = self.__plot_data__[title]
        assert isinstance(data, PlotData)
        data.append(step, value)

    def plot(self, path=None):
        """Draws the curves (into the notebook, or the file `path`)."""
        if self.__plot_is_disabled__():
            return
        titles = []
        for title in self.__args__:
            data = self.__plot_data__[title]
            if len(data.step) > 0:
                titles.append(title)
                self.plt.plot(data.step, data.value)
        self.plt.legend(titles, loc='upper left')
        if path is None:
            self.display.clear_output(wait=True)
            self.display.display(self.plt.gcf())
        else:
            self.plt.savefig(path)
        self.plt.gcf().clear()

    def reset(self):
        """Empties every curve."""
        for key in self.__plot_data__:
            self.__plot_data__[key].reset()
