# statistics: mean, median (even/odd), mode, stdev/pstdev, variance, harmonic/geometric means, quantiles on fixed data.
import statistics as st

data = [2.5, 3.1, 4.7, 1.2, 3.1, 5.0, 2.2]
print(st.mean(data), st.median(data), st.median([1, 2, 3, 4]), st.mode(data), st.median_low([1, 2, 3, 4]), st.median_high([1, 2, 3, 4]))
print(st.stdev(data), st.pstdev(data), st.variance(data), st.pvariance([1, 2, 3, 4]))
print(st.harmonic_mean([40, 60]), st.fmean([1, 2, 3]), st.mean([1, 2, 3, 4]))
print(st.quantiles([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], n=4), st.multimode("aabbbcc"))
try:
    st.mean([])
except st.StatisticsError as e:
    print("StatisticsError:", e)
